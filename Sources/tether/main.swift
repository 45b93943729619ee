import Glibc
import TetherConnection

// Composition root: parse, wire the layers, run, exit with a documented code.
//
// No top-level `await`: that would make this whole file the main task, and start the
// concurrency runtime's threads before the first argument is read. Help, the version
// and usage errors are answered on this thread; a command runs in a task on Swift's
// global executor (no command needs the main actor), and this thread waits in
// `sigsuspend` with no signal blocked, as `dispatchMain()` would leave it, without
// `dispatchMain()`'s `pthread_exit` (which loads libgcc_s to unwind the main thread)
// and the thread it starts to serve a main queue nothing uses.
SignalTrap.prepare()
if let refused = Tether.refuseInvalidUTF8(CommandLine.unsafeArgv, count: Int(CommandLine.argc)) {
    exit(refused.rawValue)
}
switch Tether.start(Array(CommandLine.arguments.dropFirst())) {
case .answered(let code):
    exit(code.rawValue)
case .run(let command, let arguments):
    Task.detached {
        exit(await Tether.run(command, arguments).rawValue)
    }
    var none = sigset_t()
    sigemptyset(&none)
    while true { sigsuspend(&none) }
}
