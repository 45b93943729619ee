import Foundation
import Testing
import TetherScript

/// Reading the script `tether run` is given: text only, a byte-order mark dropped, the
/// language by name, and why a path gives nothing to run.
@Suite struct ScriptFileTests {
    /// `bytes` in a file named `name` of a new folder; the folder's path.
    static func file(_ name: String, _ bytes: [UInt8]) throws -> (folder: String, path: String) {
        let folder = NSTemporaryDirectory() + "tether-script-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/" + name
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return (folder, path)
    }

    @Test func aByteOrderMarkIsDroppedAndTheNameGivesTheLanguage() throws {
        let (folder, path) = try Self.file("checks.LUA", [0xEF, 0xBB, 0xBF] + Array("print(1)\n".utf8))
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(try Script.read(path, forcingLua: false) == Script(name: path, text: "print(1)\n", language: .lua))
    }

    @Test func luaCanBeForcedOnAnyName() throws {
        let (folder, path) = try Self.file("checks.txt", Array("print(1)".utf8))
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(try Script.read(path, forcingLua: false).language == .queries)
        #expect(try Script.read(path, forcingLua: true).language == .lua)
    }

    @Test(arguments: [
        ([0x2A, 0x49, 0x00], "not a text file (NUL bytes or invalid UTF-8)"),
        ([0xC3, 0x28], "not a text file (NUL bytes or invalid UTF-8)"),
        ([0x20, 0x0A, 0x09], "the script is empty; there is nothing to run"),
    ])
    func onlyTextWithSomethingInItRuns(bytes: [UInt8], problem: String) throws {
        let (folder, path) = try Self.file("checks.txt", bytes)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(throws: ScriptError(at: nil, "\(path): \(problem)")) { try Script.read(path, forcingLua: false) }
    }

    @Test func aMissingFileOrAFolderIsUnreadable() throws {
        let (folder, _) = try Self.file("checks.txt", [])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(throws: Script.Unreadable(description: "\(folder)/nowhere.txt: no such file")) {
            try Script.read(folder + "/nowhere.txt", forcingLua: false)
        }
        #expect(throws: Script.Unreadable(description: "\(folder): is a directory")) {
            try Script.read(folder, forcingLua: false)
        }
    }
}
