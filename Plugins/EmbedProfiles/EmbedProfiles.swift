import Foundation
import PackagePlugin

/// Compiles the built-in simulator profiles into the binary: every
/// `Profiles/BuiltIn/*.json` of the target becomes a string in one generated Swift file
/// (`SimulatorProfiles.builtInSources`), written by the `embed-profiles` tool.
///
/// The folder is listed on every build, so a profile added later is compiled in with
/// no other step; a changed one is embedded again because each file is an input.
@main
struct EmbedProfiles: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let folder = target.directoryURL.appending(path: "Profiles/BuiltIn")
        let profiles = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "json" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        let output = context.pluginWorkDirectoryURL.appending(path: "BuiltInProfileSources.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(profiles.count) built-in profiles in \(target.name)",
                executable: try context.tool(named: "embed-profiles").url,
                arguments: [output.path] + profiles.map(\.path),
                inputFiles: profiles, outputFiles: [output])
        ]
    }
}
