// tether-sim: serve a profiled device (default: env) on a pseudo-terminal until SIGINT
// or SIGTERM. Exit codes: 0 after a signal, 64 (EX_USAGE) for bad arguments, 65
// (EX_DATAERR) for a profile with a mistake, 69 (EX_UNAVAILABLE) when the pty or the link
// cannot be created.
import Foundation
import Glibc
import TetherSimulator

func write(_ text: String, to handle: FileHandle) {
    handle.write(Data(text.utf8))
}

let command: SimCommandLine
do {
    command = try SimCommandLine.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    write(
        "Error: \(error.message)\nUsage: \(SimCommandLine.usage)\n  See 'tether-sim --help' for more information.\n",
        to: .standardError)
    exit(64)
}

switch command {
case .help:
    write(SimCommandLine.helpText, to: .standardOutput)
    exit(0)
case .version:
    write(SimCommandLine.versionText + "\n", to: .standardOutput)
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
case .serve(let link, let seed, let profile):
    let device: ProfileDevice
    do {
        device = try SimulatorProfiles.device(
            named: profile ?? SimulatorProfiles.defaultName, seed: seed ?? ProfileDevice.defaultSeed)
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
    let simulator: Simulator
    do {
        simulator = try Simulator(device: device, link: link)
    } catch {
        write("Error: \(error)\n", to: .standardError)
        exit(69)
    }
    write("device: \(simulator.devicePath)\n", to: .standardOutput)
    if let linkPath = simulator.linkPath {
        write("link: \(linkPath)\n", to: .standardOutput)
    }
    var received: Int32 = 0
    sigwait(&stopSignals, &received)
    simulator.stop()
    exit(0)
}
