/// The version both executables print for `--version`.
public enum Version {
    /// tether's version number ([Semantic Versioning 2.0.0](https://semver.org)); the
    /// Debian package (`scripts/deb`) takes it from `tether --version`.
    public static let number = "0.1.0"

    /// `--version`'s line: the program, ``number`` and the commit it was built from,
    /// e.g. `tether 0.1.0 (19fedcb)`; `tether 0.1.0 (not built from a git checkout)`
    /// when `commit` is `nil`.
    public static func text(program: String, commit: String?) -> String {
        "\(program) \(number) (\(commit ?? "not built from a git checkout"))"
    }
}
