import TetherCommandLine
import TetherSimulator

/// Fuzz target `commandline`: the one command line parser (`ParsedArguments`), over
/// the simulator's fault options (numbers, probabilities, `n@rate` bursts, a flag —
/// the options both `tether --sim` and `tether-sim` take) and a repeatable text
/// option, then the fault plan built from them.
///
/// The input is an argument vector: each argument an option name of the spec (or a
/// near miss), with or without `=VALUE`, or arbitrary text. Checked:
/// - parsing never traps: arguments give a parse, or a ``UsageError`` with a message;
///   so does building the fault plan from a parse;
/// - a parse is what the arguments said: written again in one canonical form (every
///   value as `--name=VALUE`, flags, then `--` and the positionals) it parses to the
///   same values, flags and positionals.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCommandLine(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    var arguments: [String] = []
    while !input.isEmpty, arguments.count < 24 {
        let text = String(decoding: input.chunk(limit: 16), as: UTF8.self)
        let choice = input.number(below: 8)
        let name = names[input.number(below: names.count)]
        switch choice {
        case 0, 1: arguments.append(name)
        case 2, 3: arguments.append(name + "=" + text)
        case 4: arguments.append(String(name.dropLast()))  // a near miss: a suggestion
        default: arguments.append(text)
        }
    }
    trace("arguments \(arguments)")
    let parsed: ParsedArguments
    do {
        parsed = try ParsedArguments(arguments, spec: spec)
    } catch {
        require(!error.message.isEmpty, "an empty usage error")
        return 0
    }
    do {
        _ = try FaultOptions.plan(parsed, seed: 1)
    } catch {
        require(!error.message.isEmpty, "an empty usage error from the fault plan")
    }
    var canonical: [String] = []
    for option in spec.options {
        if option.isFlag {
            if parsed.isGiven(option) { canonical.append(option.key) }
        } else {
            canonical += parsed.rawValues(of: option).map { option.key + "=" + $0 }
        }
    }
    canonical += ["--"] + parsed.positionals
    let again: ParsedArguments
    do {
        again = try ParsedArguments(canonical, spec: spec)
    } catch {
        require(false, "the canonical form \(canonical) of \(arguments) is refused: \(error.message)")
        return 0
    }
    require(again.positionals == parsed.positionals, "positionals \(again.positionals) ≠ \(parsed.positionals)")
    for option in spec.options {
        require(again.isGiven(option) == parsed.isGiven(option), "\(option.key) given differently")
        require(again.rawValues(of: option) == parsed.rawValues(of: option), "\(option.key) values differ")
    }
    return 0
}

private let labels = Option<[String]>("--label", "-l", value: "text", help: "A repeatable text.", each: Parse.text)
private let quiet = Flag("--quiet", "-q", help: "A flag.")

private let spec = CommandSpec(
    program: "fuzz", name: "", abstract: "The fuzz target's command.", discussion: "",
    arguments: [ArgumentSpec(name: "word", help: "Words.", isVariadic: true, isOptional: true)],
    options: FaultOptions.all + [labels.declaration, quiet.declaration])

/// Every name the spec takes, and the end of options and standard input's `-`.
private let names = spec.options.flatMap(\.names) + ["--", "-", "--help"]
