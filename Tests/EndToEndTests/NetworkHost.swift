import Foundation
import Glibc

/// Another "machine" on this one, for tests across hosts: a network namespace
/// (`ip netns`) joined to this one by a veth pair, this side `10.(100+N).S.1/24`, the
/// namespace's side `eth0` with `10.(100+N).S.2/24` (``address``), S from this process's
/// id so that two test runs do not collide. Programs started by ``start(_:_:)`` run
/// inside it; ``cut()`` takes its link down, ``restore()`` brings it up again.
///
/// Needs root (`CAP_NET_ADMIN`): ``isPermitted`` says whether it may be made. Removed
/// on ``remove()`` or when released — its programs killed, the namespace and the veth
/// pair deleted — and a namespace left by a test process that died is removed by the
/// next one.
final class NetworkHost {
    /// Where Debian installs iproute2's `ip`.
    static let ip = "/usr/sbin/ip"
    private static let prefix = "tether-e2e-"

    /// The namespace's name.
    let name: String
    /// Its IPv4 address, as this side reaches it.
    let address: String
    private let outside: String
    private let inside = "eth0"
    private var programs: [Subprocess] = []
    private var isRemoved = false

    /// Whether this process may make network namespaces (root, and `ip` installed):
    /// tried once, with a namespace made and deleted again.
    static let isPermitted: Bool = {
        guard FileManager.default.isExecutableFile(atPath: ip) else { return false }
        let probe = "\(prefix)\(getpid())-probe"
        guard (try? command(["netns", "add", probe])) != nil else { return false }
        _ = try? command(["netns", "delete", probe])
        return true
    }()

    /// Makes host `number` (1…150) and its link, up.
    init(number: Int) throws {
        Self.removeAbandoned()
        let pid = Int(getpid())
        name = "\(Self.prefix)\(pid)-\(number)"
        outside = "tth\(pid % 100_000)h\(number)"
        let subnet = "10.\(100 + number).\(pid % 250 + 1)"
        address = "\(subnet).2"
        do {
            try Self.command(["netns", "add", name])
            try Self.command(["link", "add", outside, "type", "veth", "peer", "name", inside, "netns", name])
            try Self.command(["addr", "add", "\(subnet).1/24", "dev", outside])
            try Self.command(["link", "set", outside, "up"])
            try Self.command(["-n", name, "addr", "add", "\(address)/24", "dev", inside])
            try Self.command(["-n", name, "link", "set", inside, "up"])
            try Self.command(["-n", name, "link", "set", "lo", "up"])
        } catch {
            remove()
            throw error
        }
    }

    /// Starts the executable at `path` inside the namespace (`ip netns exec`, which
    /// becomes it: the process is the program); killed on ``remove()``.
    func start(_ path: String, _ arguments: [String]) throws -> Subprocess {
        let program = try Subprocess(path: Self.ip, ["netns", "exec", name, path] + arguments)
        programs.append(program)
        return program
    }

    /// Takes the namespace's side of the link down: from here the host is silent, no
    /// reset, no close — a cable pulled.
    func cut() throws { try Self.command(["-n", name, "link", "set", inside, "down"]) }

    /// Brings the link up again (the addresses stay; the routes come back).
    func restore() throws { try Self.command(["-n", name, "link", "set", inside, "up"]) }

    /// Kills the programs started inside and deletes the namespace and the link;
    /// idempotent.
    func remove() {
        guard !isRemoved else { return }
        isRemoved = true
        for program in programs {
            program.send(SIGKILL)
            _ = program.wait()
        }
        programs = []
        _ = try? Self.command(["netns", "delete", name])
        // Deleting the namespace takes its end of the pair, and so this one, with it;
        // this makes sure of it.
        _ = try? Self.command(["link", "delete", outside])
    }

    deinit { remove() }

    /// Deletes the namespaces of test processes that are gone (killed before they
    /// could clean up), and kills what still runs inside them.
    private static func removeAbandoned() {
        guard let listed = try? command(["netns", "list"]) else { return }
        for line in listed.split(separator: "\n") {
            let namespace = String(line.split(separator: " ").first ?? "")
            guard namespace.hasPrefix(prefix),
                let pid = namespace.dropFirst(prefix.count).split(separator: "-").first.flatMap({ pid_t($0) }),
                kill(pid, 0) != 0, errno == ESRCH
            else { continue }
            let pids = (try? command(["netns", "pids", namespace])) ?? ""
            for program in pids.split(separator: "\n").compactMap({ pid_t($0) }) { kill(program, SIGKILL) }
            _ = try? command(["netns", "delete", namespace])
        }
    }

    /// A command of `ip` failed.
    struct CommandFailed: Error, CustomStringConvertible {
        let arguments: [String]
        let result: Subprocess.Result
        var description: String { "ip \(arguments.joined(separator: " ")): exit \(result.status): \(result.stderr)" }
    }

    /// Runs `ip arguments` and returns its output.
    @discardableResult
    private static func command(_ arguments: [String]) throws -> String {
        let result = try Subprocess.run(path: ip, arguments, timeout: 30)
        guard result.status == 0 else { throw CommandFailed(arguments: arguments, result: result) }
        return result.stdout
    }
}
