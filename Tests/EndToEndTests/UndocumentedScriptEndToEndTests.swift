import Foundation
import Testing

/// `scripts/undocumented`, the missing-doc check of `scripts/docs` (docs/LIBRARY.md),
/// on symbol graphs as swift-symbolgraph-extract writes them.
@Suite struct UndocumentedScriptEndToEndTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("scripts/undocumented").path

    /// A symbol of the graph: `path`, its access, and its doc comment's lines.
    static func symbol(_ path: [String], access: String = "public", doc: [String]?, precise: String? = nil)
        -> [String: Any]
    {
        var symbol: [String: Any] = [
            "identifier": ["precise": precise ?? "s:" + path.joined(separator: "."), "interfaceLanguage": "swift"],
            "kind": ["identifier": "swift.property"], "pathComponents": path, "accessLevel": access,
            "location": ["uri": "file:///src/Thing.swift", "position": ["line": 9, "character": 4]],
        ]
        if let doc { symbol["docComment"] = ["lines": doc.map { ["text": $0] }] }
        return symbol
    }

    /// Writes a graph of `symbols` for module `Demo`; its path.
    static func graph(_ symbols: [[String: Any]], in folder: TemporaryFolder) throws -> String {
        let graph: [String: Any] = [
            "metadata": ["formatVersion": ["major": 0, "minor": 6, "patch": 0]],
            "module": ["name": "Demo"], "symbols": symbols, "relationships": [],
        ]
        let path = folder.path("Demo.symbols.json")
        try JSONSerialization.data(withJSONObject: graph).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Only the public symbol without a comment is listed, as `FILE:LINE: NAME: …`
    /// (line 1-based): not the documented one, not an internal one, not one the
    /// compiler made, not one whose comment is blank lines only (which counts as none).
    @Test func listsThePublicDeclarationsWithoutADocComment() throws {
        let folder = try TemporaryFolder()
        let path = try Self.graph(
            [
                Self.symbol(["Thing", "documented"], doc: ["The size, in bytes."]),
                Self.symbol(["Thing", "bare"], doc: nil),
                Self.symbol(["Thing", "blank"], doc: ["", "  "]),
                Self.symbol(["Thing", "hidden"], access: "internal", doc: nil),
                Self.symbol(
                    ["Thing", "!=(_:_:)"], doc: nil, precise: "s:SQsE2neoiySbx_xtFZ::SYNTHESIZED::s:4Demo5ThingV"),
            ], in: folder)
        let result = try Subprocess.run(path: Self.script, [path])
        #expect(result.status == 1)
        #expect(
            result.stdout == """
                /src/Thing.swift:10: Demo.Thing.bare: public declaration without a doc comment
                /src/Thing.swift:10: Demo.Thing.blank: public declaration without a doc comment

                """)
    }

    /// A folder is searched for graphs; with every public symbol documented the
    /// check is silent and exits 0.
    @Test func aFullyDocumentedFolderPasses() throws {
        let folder = try TemporaryFolder()
        _ = try Self.graph([Self.symbol(["Thing"], doc: ["A thing."])], in: folder)
        let result = try Subprocess.run(path: Self.script, [folder.url.path])
        #expect(result.status == 0)
        #expect(result.stdout.isEmpty)
    }

    /// A file that is not a symbol graph is a one-line error, exit 64.
    @Test func aFileThatIsNotAGraphIsRefused() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("Broken.symbols.json")
        try Data("[1, 2]".utf8).write(to: URL(fileURLWithPath: path))
        let result = try Subprocess.run(path: Self.script, [path])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("Error: \(path): not a symbol graph"), "\(result.stderr)")
    }
}
