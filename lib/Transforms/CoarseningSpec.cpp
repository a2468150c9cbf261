//===- CoarseningSpec.cpp - Parsing and resolving coarsening factors ------===//

#include "respec/Transforms/Coarsening.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Demangle/Demangle.h"

using namespace mlir;
using namespace mlir::respec;

/// Factors beyond this are surely typos (and would blow up code size).
static constexpr int64_t kMaxFactor = 1024;

static std::optional<int64_t> parseOneFactor(StringRef text,
                                             std::string &error) {
  int64_t value;
  if (text.getAsInteger(10, value) || value < 1 || value > kMaxFactor) {
    error = ("invalid coarsening factor '" + text +
             "' (expected an integer from 1 to " + std::to_string(kMaxFactor) +
             ")")
                .str();
    return std::nullopt;
  }
  return value;
}

static std::optional<CoarseningFactor> parseFactor(StringRef text,
                                                   std::string &error) {
  CoarseningFactor factor;
  SmallVector<StringRef> parts;
  text.split(parts, 'x');
  if (parts.size() > 3) {
    error = ("invalid coarsening factor '" + text +
             "' (expected N or XxYxZ)")
                .str();
    return std::nullopt;
  }
  if (parts.size() == 1) {
    std::optional<int64_t> total = parseOneFactor(parts[0], error);
    if (!total)
      return std::nullopt;
    factor.total = *total;
    return factor;
  }
  std::array<int64_t, 3> dims = {1, 1, 1};
  for (auto [index, part] : llvm::enumerate(parts)) {
    std::optional<int64_t> value = parseOneFactor(part, error);
    if (!value)
      return std::nullopt;
    dims[index] = *value;
  }
  factor.perDimension = dims;
  return factor;
}

std::optional<CoarseningRequest>
mlir::respec::parseCoarseningRequest(StringRef text, std::string &error) {
  CoarseningRequest request;
  SmallVector<StringRef> entries;
  text.split(entries, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  if (entries.empty()) {
    error = "empty coarsening request (expected block=N,thread=N)";
    return std::nullopt;
  }
  for (StringRef entry : entries) {
    auto [key, value] = entry.split('=');
    CoarseningFactor *target = key == "block"    ? &request.block
                               : key == "thread" ? &request.thread
                                                 : nullptr;
    if (!target || value.empty()) {
      error = ("invalid coarsening entry '" + entry +
               "' (expected block=N or thread=N, N a total or XxYxZ)")
                  .str();
      return std::nullopt;
    }
    std::optional<CoarseningFactor> factor = parseFactor(value, error);
    if (!factor)
      return std::nullopt;
    *target = *factor;
  }
  return request;
}

std::optional<std::pair<std::string, CoarseningRequest>>
mlir::respec::parseKernelCoarsening(StringRef text, std::string &error) {
  auto [name, spec] = text.rsplit(':');
  if (name.empty() || spec.empty() || name == text) {
    error = ("invalid per-kernel coarsening '" + text +
             "' (expected NAME:block=N,thread=N)")
                .str();
    return std::nullopt;
  }
  std::optional<CoarseningRequest> request =
      parseCoarseningRequest(spec, error);
  if (!request)
    return std::nullopt;
  return std::make_pair(name.str(), *request);
}

/// `name` without template arguments (`f<int>` -> `f`).
static StringRef stripTemplateArguments(StringRef name) {
  return name.take_until([](char c) { return c == '<'; });
}

bool mlir::respec::kernelNameMatches(StringRef pattern,
                                     StringRef mangledName) {
  if (pattern == mangledName)
    return true;
  llvm::ItaniumPartialDemangler demangler;
  if (demangler.partialDemangle(mangledName.str().c_str()))
    return false;
  auto take = [](char *text) {
    std::string result = text ? text : "";
    std::free(text);
    return result;
  };
  std::string qualified =
      take(demangler.getFunctionName(nullptr, nullptr));
  std::string base = take(demangler.getFunctionBaseName(nullptr, nullptr));
  for (StringRef candidate : {StringRef(qualified), StringRef(base)})
    if (!candidate.empty() &&
        (pattern == candidate || pattern == stripTemplateArguments(candidate)))
      return true;
  return false;
}

bool CoarseningConfig::isIdentity() const {
  return all.isIdentity() &&
         llvm::all_of(perKernel,
                      [](const auto &entry) { return entry.second.isIdentity(); });
}

CoarseningRequest CoarseningConfig::lookup(StringRef mangledName) const {
  CoarseningRequest request = all;
  for (const auto &[pattern, kernelRequest] : perKernel)
    if (kernelNameMatches(pattern, mangledName))
      request = kernelRequest;
  return request;
}

/// Prime factors of `value`, largest first.
static SmallVector<int64_t> primeFactors(int64_t value) {
  SmallVector<int64_t> primes;
  for (int64_t p = 2; p * p <= value; ++p)
    for (; value % p == 0; value /= p)
      primes.push_back(p);
  if (value > 1)
    primes.push_back(value);
  std::reverse(primes.begin(), primes.end());
  return primes;
}

SmallVector<int64_t> mlir::respec::resolveFactors(const CoarseningFactor &factor,
                                                  unsigned rank,
                                                  ArrayRef<bool> usedDims) {
  SmallVector<int64_t> factors(rank, 1);
  if (rank == 0)
    return factors;
  if (factor.perDimension) {
    // Loop dimension i is CUDA dimension rank - 1 - i (x is last). Factors
    // of dimensions the loop does not have must be 1 (checked by callers).
    for (unsigned i = 0; i < rank; ++i)
      factors[i] = (*factor.perDimension)[rank - 1 - i];
    return factors;
  }
  SmallVector<unsigned> candidates; // x first
  for (unsigned i = rank; i-- > 0;)
    if (usedDims.empty() || usedDims[i])
      candidates.push_back(i);
  if (candidates.empty())
    candidates.push_back(rank - 1);
  for (int64_t prime : primeFactors(factor.total)) {
    unsigned best = candidates.front();
    for (unsigned dim : candidates)
      if (factors[dim] < factors[best])
        best = dim;
    factors[best] *= prime;
  }
  return factors;
}

static std::string formatFactor(const CoarseningFactor &factor) {
  if (!factor.perDimension)
    return std::to_string(factor.total);
  const auto &dims = *factor.perDimension;
  return std::to_string(dims[0]) + "x" + std::to_string(dims[1]) + "x" +
         std::to_string(dims[2]);
}

std::string
mlir::respec::formatCoarseningRequest(const CoarseningRequest &request) {
  return "block=" + formatFactor(request.block) +
         ",thread=" + formatFactor(request.thread);
}
