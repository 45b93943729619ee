import Dispatch
import Glibc

// Composition root: parse, wire the layers, run, exit with a documented code.
//
// No top-level `await`: that would make this whole file the main task, and start the
// concurrency runtime's threads before the first argument is read. Help, the version
// and usage errors are answered on this thread; a command runs in a task on the main
// actor, whose queue `dispatchMain()` serves.
SignalTrap.prepare()
if let refused = Tether.refuseInvalidUTF8(CommandLine.unsafeArgv, count: Int(CommandLine.argc)) {
    exit(refused.rawValue)
}
switch Tether.start(Array(CommandLine.arguments.dropFirst())) {
case .answered(let code):
    exit(code.rawValue)
case .run(let command, let arguments):
    Task { @MainActor in
        exit(await Tether.run(command, arguments).rawValue)
    }
    dispatchMain()
}
