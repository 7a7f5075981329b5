/// The service's name and version, as `GET /` reports them.
public enum ServiceInfo {
    /// The product name.
    public static let name = "snapdiff"
    /// The release version (semantic versioning).
    public static let version = "0.1.0"
}
