import Foundation
import Testing

/// tether(1) and tether-sim(1), generated from the option declarations (`--generate-man`,
/// hidden), render with groff without a warning and hold every option `--help` shows.
@Suite struct ManPageEndToEndTests {
    /// `program --generate-man` rendered by `groff -ww -man -Tutf8` (all warnings on).
    static func render(_ program: String) throws -> (page: String, rendered: Subprocess.Result) {
        let folder = try TemporaryFolder()
        let page = try Subprocess.run(program, ["--generate-man"])
        #expect(page.status == 0, "\(page.stderr)")
        try page.stdout.write(toFile: folder.path("\(program).1"), atomically: true, encoding: .utf8)
        let rendered = try Subprocess.run(
            path: "/usr/bin/env", ["groff", "-ww", "-man", "-Tutf8", folder.path("\(program).1")])
        return (page.stdout, rendered)
    }

    @Test(arguments: ["tether", "tether-sim"])
    func thePageRendersWithoutWarnings(program: String) throws {
        let (page, rendered) = try Self.render(program)
        #expect(page.hasPrefix(".TH \(program.uppercased().replacingOccurrences(of: "-", with: "\\-")) 1 "))
        #expect(rendered.status == 0)
        #expect(rendered.stderr == "", "\(rendered.stderr)")
        #expect(rendered.stdout.replacing(/.\x{08}/, with: "").contains("NAME\n       \(program) - "))
    }

    /// Every option of every subcommand is on the page (groff's output has no
    /// formatting with `-Tutf8` once `col -b`'s job is done; bold is `X\bX`).
    @Test func everySubcommandAndOptionOfTetherIsOnThePage() throws {
        let (_, rendered) = try Self.render("tether")
        let text = rendered.stdout.replacing(/.\x{08}/, with: "")
        for subcommand in ["query", "run", "monitor", "connect", "list", "lines", "udev-rule", "completion"] {
            #expect(text.contains("tether \(subcommand)"), "no section for \(subcommand)")
            let help = try Subprocess.run("tether", [subcommand, "--help"]).stdout
            for option in help.matches(of: /\n  (?:-\w, )?(--[a-z-]+)/).map({ String($0.1) }) {
                #expect(text.contains(option), "\(subcommand): \(option) is not on the page")
            }
        }
    }
}
