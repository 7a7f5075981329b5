/// The OpenAPI description the binary was built with (openapi.yaml at the top of the repository, embedded at
/// build time), served at `GET /openapi.yaml`.
enum OpenAPIDocument {
    static let bytes: [UInt8] = PackageResources.openapi_yaml
}
