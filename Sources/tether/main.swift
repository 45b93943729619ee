import Glibc

// Composition root: parse, wire the layers, run, exit with a documented code.
SignalTrap.prepare()
if let refused = Tether.refuseInvalidUTF8(CommandLine.unsafeArgv, count: Int(CommandLine.argc)) {
    exit(refused.rawValue)
}
let code = await Tether.main(Array(CommandLine.arguments.dropFirst()))
exit(code.rawValue)
