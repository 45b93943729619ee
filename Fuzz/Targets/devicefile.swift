import Foundation
import TetherCommandLine
import TetherDeviceSettings
import TetherModel

/// Fuzz target `devicefile`: device description files (`--device FILE`, docs/DIALECTS.md).
///
/// The input is a description document. Checked:
/// - reading never traps: a document is a layer of settings, or a ``UsageError`` naming
///   the file ("fuzz.json: …");
/// - a layer holds only device options, flags as flags, at most one value for an
///   option that does not repeat, and every value passes its option's parser;
/// - the layer merges under a command line without error, and making its dialect
///   gives a dialect or a usage error (an option for another dialect), never a trap.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDeviceFile(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let layer: SettingsLayer
    do {
        layer = try DeviceDescription.parse(Array(UnsafeBufferPointer(start: data, count: size)), file: "fuzz.json")
    } catch {
        require(error.message.hasPrefix("fuzz.json: "), "an error without the file: \(error.message)")
        return 0
    }
    trace("layer \(layer.values) \(layer.flags)")
    let options = DeviceSettings.options
    for (key, values) in layer.values {
        guard let option = options.first(where: { $0.key == key }) else {
            require(false, "the layer gives '\(key)', no device option")
            return 0
        }
        require(!option.isFlag, "the flag '\(key)' has values")
        require(option.isRepeatable || values.count == 1, "'\(key)' has \(values.count) values")
        for value in values {
            require((try? option.validate(value)) != nil, "'\(key)' took the invalid value '\(value)'")
        }
    }
    for key in layer.flags.keys {
        require(options.contains { $0.key == key && $0.isFlag }, "the flag '\(key)' is no device flag")
    }
    let spec = CommandSpec(program: "fuzz", abstract: "device settings", options: options)
    let settings: DeviceSettings
    do {
        settings = try DeviceSettings(ParsedArguments([], spec: spec), below: [layer])
    } catch {
        require(false, "a layer read from a file does not merge: \(error.message)")
        return 0
    }
    do {
        let dialect = try settings.dialect.makeDialect()
        trace("dialect \(dialect.name), \(settings.configuration)")
    } catch {
        trace("no dialect: \(error.message)")
    }
    return 0
}
