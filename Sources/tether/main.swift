import Glibc

// Composition root: parse, wire the layers, run, exit with a documented code.
let code = await Tether.main(Array(CommandLine.arguments.dropFirst()))
exit(code.rawValue)
