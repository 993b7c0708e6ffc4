import ArgumentParser
import Server

/// Prints the API's OpenAPI document as the declarations make it. The committed copy is
/// regenerated with `swift run transit openapi > Sources/Server/Resources/openapi.json`.
struct OpenAPICommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "openapi",
        abstract: "Print the API's OpenAPI 3.1 document, generated from the parameters' declarations.",
        discussion: "Regenerate the served copy with: \(OpenAPIGenerator.regenerate)"
    )

    func run() {
        print(OpenAPIGenerator.document(), terminator: "")
    }
}
