// tether-sim: serve one or more simulated devices (a profile, default: env) on
// pseudo-terminals until SIGINT or SIGTERM, or until every device has hung up for good.
// Exit codes: 0 after a signal or when every device is gone, 64 (EX_USAGE) for bad
// arguments, 65 (EX_DATAERR) for a profile with a mistake, 69 (EX_UNAVAILABLE) when a
// pty, a link or a log file cannot be created.
import Foundation
import Glibc
import TetherCommandLine
import TetherSimulator

func write(_ text: String, to handle: FileHandle) {
    handle.write(Data(text.utf8))
}

let command: SimCommandLine
do {
    command = try SimCommandLine.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    write("Error: \(error.message) (see 'tether-sim --help')\n", to: .standardError)
    exit(64)
}

switch command {
case .help:
    write(HelpFormatter.help(SimCommandLine.spec), to: .standardOutput)
    exit(0)
case .version:
    write(SimCommandLine.versionText + "\n", to: .standardOutput)
    exit(0)
case .generate(.manPage):
    write(
        ManPage.render(SimCommandLine.spec, version: "tether-sim \(Version.number)", seeAlso: ["tether"]),
        to: .standardOutput)
    exit(0)
case .generate(.completion(let shell)):
    write(ShellCompletion.script(shell, for: SimCommandLine.spec), to: .standardOutput)
    exit(0)
case .listProfiles:
    do {
        for profile in try SimulatorProfiles.builtIns() {
            let name = profile.name.padding(toLength: 16, withPad: " ", startingAt: 0)
            let dialect = profile.dialect.padding(toLength: 8, withPad: " ", startingAt: 0)
            write("\(name)\(dialect)\(profile.description)\n", to: .standardOutput)
        }
    } catch {
        write("Error: \(error)\n", to: .standardError)
        exit(65)
    }
    exit(0)
case .serve(let request):
    // Loaded once, before any pty is made, so a profile with a mistake exits 65 at once.
    do {
        _ = try SimulatorProfiles.device(named: request.profile ?? SimulatorProfiles.defaultName)
    } catch {
        write("Error: \(error)\n", to: .standardError)
        exit(65)
    }
    // SIGINT and SIGTERM are blocked before any thread starts (threads inherit the mask)
    // and taken with sigwait below: no work happens in a C signal handler.
    var stopSignals = sigset_t()
    sigemptyset(&stopSignals)
    sigaddset(&stopSignals, SIGINT)
    sigaddset(&stopSignals, SIGTERM)
    pthread_sigmask(SIG_BLOCK, &stopSignals, nil)
    var simulators: [Simulator] = []
    do {
        for index in 0..<request.deviceCount {
            let seed = request.seed(ofDevice: index)
            let transcript = try request.logPath(ofDevice: index).map { path throws(SimulatorError) in
                try Transcript(path: path)
            }
            let device = try SimulatorProfiles.device(
                named: request.profile ?? SimulatorProfiles.defaultName, seed: seed,
                serialNumber: ProfileDevice.serialNumber(ofDevice: index))
            let simulator = try Simulator(
                device: device, link: request.link(ofDevice: index),
                faults: request.faults(ofDevice: index), transcript: transcript)
            simulators.append(simulator)
            write("device: \(simulator.devicePath)\n", to: .standardOutput)
            if let linkPath = simulator.linkPath {
                write("link: \(linkPath)\n", to: .standardOutput)
            }
        }
        if let device = simulators.first?.device as? ProfileDevice {
            let noisy = request.faults.garbageProbability > 0
            write(
                "tether options: \(device.profile.tetherCommandLine(patternsMatchAnywhere: noisy))\n",
                to: .standardOutput)
        }
    } catch let error as SimulatorError {
        simulators.forEach { $0.stop() }
        write("Error: \(error)\n", to: .standardError)
        exit(69)
    } catch {
        // The profile loaded above failed this time: its file changed meanwhile.
        simulators.forEach { $0.stop() }
        write("Error: \(error)\n", to: .standardError)
        exit(65)
    }
    // A device that hangs up for good (a disconnect fault without --reappear-after)
    // stops its simulator; once all have stopped, end as if signalled. One that comes
    // back (--reappear-after) is announced again with its new pty.
    let watched = simulators
    Thread {
        var paths = watched.map(\.devicePath)
        while watched.contains(where: \.isRunning) {
            usleep(100_000)
            for (index, simulator) in watched.enumerated() where simulator.isRunning {
                let path = simulator.devicePath
                guard path != paths[index] else { continue }
                paths[index] = path
                write("device: \(path)\n", to: .standardOutput)
            }
        }
        kill(getpid(), SIGTERM)
    }.start()
    var received: Int32 = 0
    sigwait(&stopSignals, &received)
    simulators.forEach { $0.stop() }
    exit(0)
}
