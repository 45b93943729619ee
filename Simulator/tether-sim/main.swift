// tether-sim: serve one or more simulated devices (a profile, default: env) on
// pseudo-terminals until a signal, or until every device has hung up for good.
// Exit codes: 0 when every device is gone, 64 (EX_USAGE) for bad arguments, 65
// (EX_DATAERR) for a profile with a mistake, 69 (EX_UNAVAILABLE) when a pty, a link, a
// log file or a thread cannot be created, 74 (EX_IOERR) when standard output cannot be
// written, 128 + the signal after SIGHUP (129), SIGINT (130), SIGQUIT (131), SIGPIPE
// (141) or SIGTERM (143). Every way out but SIGKILL removes the links.
import Glibc
import TetherCommandLine
import TetherLibC
import TetherSimulator

let command: SimCommandLine
do {
    command = try SimCommandLine.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    SimOutput.error("Error: \(error.message) (see 'tether-sim --help')\n")
    exit(64)
}

switch command {
case .help:
    SimOutput.print(HelpFormatter.help(SimCommandLine.spec))
    exit(0)
case .version:
    SimOutput.print(SimCommandLine.versionText + "\n")
    exit(0)
case .generate(.manPage):
    SimOutput.print(ManPage.render(SimCommandLine.spec, version: "tether-sim \(Version.number)", seeAlso: ["tether"]))
    exit(0)
case .generate(.completion(let shell)):
    SimOutput.print(ShellCompletion.script(shell, for: SimCommandLine.spec))
    exit(0)
case .listProfiles:
    do {
        for profile in try SimulatorProfiles.builtIns() {
            SimOutput.print("\(column(profile.name, 16))\(column(profile.dialect, 8))\(profile.description)\n")
        }
    } catch {
        SimOutput.error("Error: \(error)\n")
        exit(65)
    }
    exit(0)
case .serve(let request):
    // Loaded once, before any pty is made, so a profile with a mistake exits 65 at once.
    do {
        _ = try SimulatorProfiles.device(named: request.profile ?? SimulatorProfiles.defaultName)
    } catch {
        SimOutput.error("Error: \(error)\n")
        exit(65)
    }
    // The signals that end serving are blocked before any thread starts (threads
    // inherit the mask) and taken with sigwaitinfo below: no work happens in a C signal
    // handler. SIGPIPE among them makes a write to a closed stdout fail with EPIPE.
    var stopSignals = sigset_t()
    sigemptyset(&stopSignals)
    for signal in SimOutput.stopSignals { sigaddset(&stopSignals, signal) }
    pthread_sigmask(SIG_BLOCK, &stopSignals, nil)
    var simulators: [Simulator] = []
    do {
        for index in 0..<request.deviceCount {
            let seed = request.seed(ofDevice: index)
            let transcript = try request.logPath(ofDevice: index).map { path throws(SimulatorError) in
                try Transcript(path: path)
            }
            let device: any SimulatedDevice =
                try request.board?.device()
                ?? SimulatorProfiles.device(
                    named: request.profile ?? SimulatorProfiles.defaultName, seed: seed,
                    serialNumber: ProfileDevice.serialNumber(ofDevice: index))
            let simulator = try Simulator(
                device: device, link: request.link(ofDevice: index),
                faults: request.faults(ofDevice: index), transcript: transcript)
            simulators.append(simulator)
            SimOutput.serving(simulators)
            SimOutput.print("device: \(simulator.devicePath)\n")
            if let linkPath = simulator.linkPath {
                SimOutput.print("link: \(linkPath)\n")
            }
        }
        if let device = simulators.first?.device as? ProfileDevice {
            let noisy = request.faults.garbageProbability > 0
            SimOutput.print("tether options: \(device.profile.tetherCommandLine(patternsMatchAnywhere: noisy))\n")
        }
    } catch let error as SimulatorError {
        simulators.forEach { $0.stop() }
        SimOutput.error("Error: \(error)\n")
        exit(69)
    } catch {
        // The profile loaded above failed this time: its file changed meanwhile.
        simulators.forEach { $0.stop() }
        SimOutput.error("Error: \(error)\n")
        exit(65)
    }
    // A device that hangs up for good (a disconnect fault without --reappear-after)
    // stops its simulator; once all have stopped, end with 0: the watcher sends SIGTERM
    // to this process, told from one sent from outside by its sender. One that comes
    // back (--reappear-after) is announced again with its new pty.
    let watched = simulators
    let watching = DedicatedThread.start {
        var paths = watched.map(\.devicePath)
        while watched.contains(where: \.isRunning) {
            usleep(100_000)
            for (index, simulator) in watched.enumerated() where simulator.isRunning {
                let path = simulator.devicePath
                guard path != paths[index] else { continue }
                paths[index] = path
                SimOutput.print("device: \(path)\n")
            }
        }
        kill(getpid(), SIGTERM)
    }
    guard watching else {
        simulators.forEach { $0.stop() }
        SimOutput.error("Error: cannot start a thread (out of threads?)\n")
        exit(69)
    }
    var received = siginfo_t()
    let signal = sigwaitinfo(&stopSignals, &received)
    SimOutput.finish(signal == SIGTERM && received._sifields._kill.si_pid == getpid() ? 0 : 128 + signal)
}

/// `text` cut or padded with spaces to `width` characters: a column of `--list-profiles`.
func column(_ text: String, _ width: Int) -> String {
    String(text.prefix(width)) + String(repeating: " ", count: max(0, width - text.count))
}
