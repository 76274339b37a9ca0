// Message digests of strings, as Flink computes them (SqlFunctionUtils.hash): the digest of the
// UTF-8 bytes, as lowercase hexadecimal. MD5, SHA1, SHA224, SHA256, SHA384, SHA512, and
// SHA2(s, bits) with bits 224, 256, 384 or 512 (others fail: "Unsupported algorithm: SHA-100").
// Digests come from OpenSSL's libcrypto; one digest context serves a whole kernel call.
#include <fmt/format.h>
#include <openssl/evp.h>

#include <memory>

#include "function/scalar/scalar_function_builders.h"

namespace eddy::function {
namespace {

using std::string_view;

// One EVP digest context for the rows of a kernel call.
class Digester {
 public:
  Digester() : context_(EVP_MD_CTX_new(), EVP_MD_CTX_free) {
    if (context_ == nullptr) throw InternalError("EVP_MD_CTX_new failed");
  }
  // The lowercase hex digest of `text`.
  std::string hexDigest(const EVP_MD* algorithm, string_view text) {
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    if (EVP_DigestInit_ex(context_.get(), algorithm, nullptr) != 1 ||
        EVP_DigestUpdate(context_.get(), text.data(), text.size()) != 1 ||
        EVP_DigestFinal_ex(context_.get(), digest, &length) != 1) {
      throw InternalError("OpenSSL digest failed");
    }
    static constexpr char kHex[] = "0123456789abcdef";
    std::string hex(static_cast<size_t>(length) * 2, '0');
    for (unsigned int i = 0; i < length; ++i) {
      hex[2 * i] = kHex[digest[i] >> 4];
      hex[2 * i + 1] = kHex[digest[i] & 0xF];
    }
    return hex;
  }

 private:
  std::unique_ptr<EVP_MD_CTX, void (*)(EVP_MD_CTX*)> context_;
};

const EVP_MD* sha2Of(int32_t bits) {
  switch (bits) {
    case 224:
      return EVP_sha224();
    case 256:
      return EVP_sha256();
    case 384:
      return EVP_sha384();
    case 512:
      return EVP_sha512();
    default:
      throw TableException(fmt::format("Unsupported algorithm: SHA-{}", bits));
  }
}

void addDigest(FunctionRegistry& registry, const char* name, const EVP_MD* (*algorithm)(),
               int hexLength) {
  registry.add(ScalarFunction(
      name, FunctionSyntax::kFunction, {fmt::format("'{}(<CHARACTER>)'", name)},
      [algorithm, hexLength](
          const std::vector<LogicalTypePtr>& arguments) -> std::optional<BoundScalarFunction> {
        if (arguments.size() != 1) return std::nullopt;
        auto type = characterArgument(arguments[0]);
        if (!type) return std::nullopt;
        return BoundScalarFunction{
            {*type},
            LogicalType::varchar(hexLength, (*type)->isNullable()),
            [algorithm](const std::vector<KernelVector>& values, const LogicalTypePtr& result) {
              Digester digester;
              const EVP_MD* md = algorithm();
              return UnaryExecutor::execute<string_view, string_view>(
                  values[0], result,
                  [&](string_view text) { return digester.hexDigest(md, text); });
            }};
      }));
}

}  // namespace

void registerHashFunctions(FunctionRegistry& registry) {
  addDigest(registry, "MD5", EVP_md5, 32);
  addDigest(registry, "SHA1", EVP_sha1, 40);
  addDigest(registry, "SHA224", EVP_sha224, 56);
  addDigest(registry, "SHA256", EVP_sha256, 64);
  addDigest(registry, "SHA384", EVP_sha384, 96);
  addDigest(registry, "SHA512", EVP_sha512, 128);
  registry.add(ScalarFunction(
      "SHA2", FunctionSyntax::kFunction, {"'SHA2(<CHARACTER>, <INTEGER>)'"},
      [](const std::vector<LogicalTypePtr>& arguments) -> std::optional<BoundScalarFunction> {
        if (arguments.size() != 2) return std::nullopt;
        auto type = characterArgument(arguments[0]);
        if (!type || (!isNullType(*arguments[1]) && !isIntegral(*arguments[1]))) {
          return std::nullopt;
        }
        LogicalTypePtr bits =
            LogicalType::simple(LogicalTypeRoot::INTEGER, arguments[1]->isNullable());
        return BoundScalarFunction{
            {*type, bits},
            LogicalType::varchar(128, (*type)->isNullable() || bits->isNullable()),
            [](const std::vector<KernelVector>& values, const LogicalTypePtr& result) {
              Digester digester;
              return BinaryExecutor::execute<string_view, int32_t, string_view>(
                  values[0], values[1], result, [&](string_view text, int32_t length) {
                    return digester.hexDigest(sha2Of(length), text);
                  });
            }};
      }));
}

}  // namespace eddy::function
