import Glibc
import Testing
@testable import MicroHTTP

@Suite struct ClientAddressTests {
    @Test(arguments: ["127.0.0.1", "10.1.2.3", "::1", "2001:db8::8a2e:370:7334", "::ffff:192.0.2.1"])
    func formatsTheAddressItCopied(text: String) throws {
        var storage = sockaddr_storage()
        let parsed = withUnsafeMutableBytes(of: &storage) { raw -> Bool in
            if text.contains(":") {
                let v6 = raw.baseAddress!.assumingMemoryBound(to: sockaddr_in6.self)
                v6.pointee.sin6_family = sa_family_t(AF_INET6)
                return inet_pton(AF_INET6, text, &v6.pointee.sin6_addr) == 1
            }
            let v4 = raw.baseAddress!.assumingMemoryBound(to: sockaddr_in.self)
            v4.pointee.sin_family = sa_family_t(AF_INET)
            return inet_pton(AF_INET, text, &v4.pointee.sin_addr) == 1
        }
        #expect(parsed)
        let address = withUnsafeBytes(of: &storage) { ClientAddress(copying: $0.baseAddress!.assumingMemoryBound(to: sockaddr.self)) }
        #expect(try #require(address).text == text)
    }

    @Test func otherFamiliesHaveNoAddress() {
        var storage = sockaddr_storage()
        storage.ss_family = sa_family_t(AF_UNIX)
        let address = withUnsafeBytes(of: &storage) { ClientAddress(copying: $0.baseAddress!.assumingMemoryBound(to: sockaddr.self)) }
        #expect(address == nil)
    }

    @Test func aRequestBuiltWithTextKeepsIt() {
        var request = HTTPRequest(method: "GET", path: "/", remoteAddress: "192.0.2.7")
        #expect(request.remoteAddress == "192.0.2.7")
        request.remoteAddress = nil
        #expect(request.remoteAddress == nil)
    }
}
