//===- SymbolicThreadValues.cpp - Thread values over block unknowns -------===//

#include "SymbolicThreadValues.h"

#include "respec/Transforms/ThreadLoopUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::respec;

std::optional<SmallVector<int64_t, 4>>
mlir::respec::getGEPIndexSteps(LLVM::GEPOp gep, const DataLayout &layout) {
  SmallVector<int64_t, 4> steps;
  Type type = gep.getElemType();
  for (unsigned i = 0, e = gep.getIndices().size(); i < e; ++i) {
    if (i != 0) {
      auto array = dyn_cast<LLVM::LLVMArrayType>(type);
      if (!array)
        return std::nullopt;
      type = array.getElementType();
    }
    steps.push_back(
        static_cast<int64_t>(layout.getTypeSize(type).getFixedValue()));
  }
  return steps;
}

Region &mlir::respec::getBranchRegion(Operation *branch, unsigned index) {
  auto switchOp = dyn_cast<scf::IndexSwitchOp>(branch);
  if (!switchOp)
    return branch->getRegion(index);
  return index < switchOp.getNumCases() ? switchOp.getCaseRegions()[index]
                                        : switchOp.getDefaultRegion();
}

unsigned mlir::respec::getBranchRegionIndex(Operation *branch, Region *region) {
  auto switchOp = dyn_cast<scf::IndexSwitchOp>(branch);
  if (!switchOp)
    return region->getRegionNumber();
  if (region == &switchOp.getDefaultRegion())
    return switchOp.getNumCases();
  for (auto [i, caseRegion] : llvm::enumerate(switchOp.getCaseRegions()))
    if (&caseRegion == region)
      return i;
  llvm_unreachable("region of another op");
}

//===----------------------------------------------------------------------===//
// Polynomial
//===----------------------------------------------------------------------===//

Polynomial Polynomial::constant(int64_t value) {
  Polynomial p;
  if (value != 0)
    p.coefficients[{}] = value;
  return p;
}

Polynomial Polynomial::unknown(unsigned id) {
  Polynomial p;
  p.coefficients[{id}] = 1;
  return p;
}

static int64_t wrapAdd(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) +
                              static_cast<uint64_t>(b));
}

static int64_t wrapMul(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) *
                              static_cast<uint64_t>(b));
}

Polynomial Polynomial::operator+(const Polynomial &other) const {
  Polynomial sum = *this;
  for (const auto &[monomial, c] : other.coefficients) {
    int64_t &slot = sum.coefficients[monomial];
    slot = wrapAdd(slot, c);
    if (slot == 0)
      sum.coefficients.erase(monomial);
  }
  return sum;
}

Polynomial Polynomial::operator-(const Polynomial &other) const {
  return *this + other * constant(-1);
}

Polynomial Polynomial::operator*(const Polynomial &other) const {
  Polynomial product;
  for (const auto &[a, ca] : coefficients)
    for (const auto &[b, cb] : other.coefficients) {
      std::vector<unsigned> monomial(a);
      monomial.insert(monomial.end(), b.begin(), b.end());
      llvm::sort(monomial);
      int64_t &slot = product.coefficients[monomial];
      slot = wrapAdd(slot, wrapMul(ca, cb));
      if (slot == 0)
        product.coefficients.erase(monomial);
    }
  return product;
}

Polynomial Polynomial::truncated(unsigned bits) const {
  if (bits >= 64)
    return *this;
  Polynomial result;
  for (const auto &[monomial, c] : coefficients) {
    int64_t reduced =
        APInt(64, c, /*isSigned=*/true).trunc(bits).sext(64).getSExtValue();
    if (reduced != 0)
      result.coefficients[monomial] = reduced;
  }
  return result;
}

std::optional<int64_t> Polynomial::getConstant() const {
  if (coefficients.empty())
    return 0;
  if (coefficients.size() == 1 && coefficients.begin()->first.empty())
    return coefficients.begin()->second;
  return std::nullopt;
}

unsigned Polynomial::degree() const {
  unsigned degree = 0;
  for (const auto &[monomial, c] : coefficients)
    degree = std::max<unsigned>(degree, monomial.size());
  return degree;
}

std::string Polynomial::str() const {
  std::string text;
  llvm::raw_string_ostream os(text);
  for (const auto &[monomial, c] : coefficients) {
    os << (c < 0 ? "" : "+") << c;
    for (unsigned id : monomial)
      os << "*u" << id;
  }
  return text.empty() ? "0" : text;
}

//===----------------------------------------------------------------------===//
// SymbolicThreadEvaluator
//===----------------------------------------------------------------------===//

namespace {
/// Width of interval arithmetic: products of two 64-bit values and a
/// 64-bit coefficient, summed, do not overflow it.
constexpr unsigned kRangeBits = 256;
/// Deepest recursion through the operands of one value.
constexpr unsigned kMaxDepth = 64;
/// Longest description of a value and most terms of a polynomial: values
/// built from many shared subexpressions are not compared.
constexpr size_t kMaxKeyLength = 4096;
constexpr size_t kMaxTerms = 64;

APInt wide(int64_t value) { return APInt(kRangeBits, value, true); }

std::string typeString(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << type;
  return text;
}
} // namespace

void SymbolicThreadEvaluator::setThread(
    ArrayRef<int64_t> ids, const DenseMap<Operation *, unsigned> *forcedRegions,
    ReachFn reachFn) {
  thread.assign(ids.begin(), ids.end());
  forced = forcedRegions;
  reaches = reachFn;
  cache.clear();
  decisions.clear();
}

int SymbolicThreadEvaluator::add(SymbolicValue value) {
  if (value.key.size() > kMaxKeyLength ||
      value.polynomial.terms().size() > kMaxTerms)
    return -1;
  values.push_back(std::move(value));
  return static_cast<int>(values.size()) - 1;
}

int SymbolicThreadEvaluator::integer(const Polynomial &p, unsigned width,
                                     bool exact) {
  SymbolicValue v;
  v.kind = SymbolicValue::Kind::Integer;
  v.width = width;
  v.polynomial = p.truncated(width);
  v.exact = exact;
  v.key = "i" + std::to_string(width) + "(" + v.polynomial.str() + ")";
  return add(std::move(v));
}

int SymbolicThreadEvaluator::other(std::string key) {
  SymbolicValue v;
  v.key = std::move(key);
  return add(std::move(v));
}

int SymbolicThreadEvaluator::eval(Value value) { return evalAt(value, 0); }

int SymbolicThreadEvaluator::evalAt(Value value, unsigned depth) {
  auto known = cache.find(value);
  if (known != cache.end())
    return known->second;
  int result = depth > kMaxDepth ? -1 : compute(value, depth);
  cache[value] = result;
  return result;
}

bool SymbolicThreadEvaluator::trusted(Operation *op) {
  return reaches && reaches(op).value_or(false);
}

/// Values the same for all threads of the block: integers are unknowns of
/// the polynomials, pointers roots of addresses, others named as they are.
int SymbolicThreadEvaluator::unknownValue(Value value) {
  auto [it, inserted] = unknownIds.try_emplace(value, unknowns.size());
  if (inserted)
    unknowns.push_back(value);
  unsigned id = it->second;
  if (std::optional<unsigned> width = getIntWidth(value.getType()))
    return integer(Polynomial::unknown(id), *width, /*exact=*/true);
  SymbolicValue v;
  if (isa<LLVM::LLVMPointerType>(value.getType())) {
    v.kind = SymbolicValue::Kind::Pointer;
    v.root = value;
    v.key = "p" + std::to_string(id) + "(0)";
  } else {
    v.key = "u" + std::to_string(id);
  }
  return add(std::move(v));
}

/// The range of an unknown: block indices (grid-loop induction variables,
/// also cast to 32 bits) are in [0, 2^31 - 1], other integers anything
/// their width holds.
std::pair<APInt, APInt> SymbolicThreadEvaluator::unknownRange(unsigned id) {
  Value value = unknowns[id];
  Value source = value;
  if (Operation *def = value.getDefiningOp())
    if (isa<arith::IndexCastUIOp, arith::IndexCastOp>(def))
      source = def->getOperand(0);
  if (auto arg = dyn_cast<BlockArgument>(source)) {
    Operation *owner = arg.getOwner()->getParentOp();
    auto grid = dyn_cast_or_null<scf::ParallelOp>(owner);
    if (grid && isGridLoop(grid) && arg.getArgNumber() < grid.getNumLoops() &&
        getConstantIntValue(grid.getLowerBound()[arg.getArgNumber()]) == 0)
      return {wide(0), wide((int64_t(1) << 31) - 1)};
  }
  unsigned width = getIntWidth(value.getType()).value_or(64);
  return {APInt::getSignedMinValue(width).sext(kRangeBits),
          APInt::getSignedMaxValue(width).sext(kRangeBits)};
}

/// The range of an exact polynomial's value, if its degree allows.
std::optional<std::pair<APInt, APInt>>
SymbolicThreadEvaluator::range(const Polynomial &p) {
  if (p.degree() > 2)
    return std::nullopt;
  APInt lo = wide(0), hi = wide(0);
  for (const auto &[monomial, c] : p.terms()) {
    APInt mlo = wide(1), mhi = wide(1);
    for (unsigned id : monomial) {
      auto [ulo, uhi] = unknownRange(id);
      APInt corners[] = {mlo * ulo, mlo * uhi, mhi * ulo, mhi * uhi};
      mlo = mhi = corners[0];
      for (const APInt &corner : corners) {
        if (corner.slt(mlo))
          mlo = corner;
        if (corner.sgt(mhi))
          mhi = corner;
      }
    }
    APInt a = mlo * wide(c), b = mhi * wide(c);
    lo += a.slt(b) ? a : b;
    hi += a.slt(b) ? b : a;
  }
  return std::make_pair(lo, hi);
}

int SymbolicThreadEvaluator::compute(Value value, unsigned depth) {
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    // Induction variables are (z, y, x); threads are given as (x, y, z).
    if (arg.getOwner() == loop.getBody())
      return integer(Polynomial::constant(
                         thread[loop.getNumLoops() - 1 - arg.getArgNumber()]),
                     64, /*exact=*/true);
    if (isDefinedOutside(value, loop))
      return unknownValue(value);
    return -1;
  }
  APInt constant;
  if (matchPattern(value, m_ConstantInt(&constant)))
    return integer(Polynomial::constant(constant.getSExtValue()),
                   constant.getBitWidth(), /*exact=*/true);
  Operation *def = value.getDefiningOp();
  if (!loop->isAncestor(def))
    return unknownValue(value);
  if (isa<LLVM::PoisonOp, LLVM::UndefOp>(def))
    return other("poison");
  if (Attribute attr; matchPattern(value, m_Constant(&attr))) {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << "c(" << attr << ":" << value.getType() << ")";
    return other(text);
  }
  if (classifyCast(def))
    return computeCast(def, depth);
  if (matchIntComparison(value))
    return computeComparison(value, depth);
  if (isa<scf::IfOp, scf::IndexSwitchOp, arith::SelectOp, LLVM::SelectOp>(def))
    return computeBranchResult(def, cast<OpResult>(value).getResultNumber(),
                               depth);
  if (isa<LLVM::GEPOp>(def))
    return computeGEP(def, depth);
  if (isa<arith::AddIOp, LLVM::AddOp, arith::SubIOp, LLVM::SubOp, arith::MulIOp,
          LLVM::MulOp, arith::ShLIOp, LLVM::ShlOp>(def) ||
      isDisjointOr(def))
    return computeArithmetic(def, depth);
  return computeGeneric(def, depth);
}

int SymbolicThreadEvaluator::computeCast(Operation *op, unsigned depth) {
  int operand = evalAt(op->getOperand(0), depth + 1);
  unsigned width = *getIntWidth(op->getResult(0).getType());
  if (operand < 0)
    return -1;
  SymbolicValue a = values[operand];
  if (a.kind != SymbolicValue::Kind::Integer)
    return other("cast" + std::to_string(width) + "(" + a.key + ")");
  CastKind kind = *classifyCast(op);
  auto fits = [&](unsigned bits, bool nonNegative) {
    std::optional<std::pair<APInt, APInt>> r = range(a.polynomial);
    if (!a.exact || !r)
      return false;
    APInt lo =
        nonNegative ? wide(0) : APInt::getSignedMinValue(bits).sext(kRangeBits);
    APInt hi = APInt::getSignedMaxValue(bits).sext(kRangeBits);
    return r->first.sge(lo) && r->second.sle(hi);
  };
  switch (kind) {
  case CastKind::Same:
    return integer(a.polynomial, width, a.exact);
  case CastKind::SignExtend:
    if (a.exact)
      return integer(a.polynomial, width, true);
    break;
  case CastKind::NonNegExtend:
    // The flag says the operand is not negative where the op ran.
    if (a.exact && trusted(op))
      return integer(a.polynomial, width, true);
    [[fallthrough]];
  case CastKind::ZeroExtend:
    if (fits(a.width, /*nonNegative=*/true))
      return integer(a.polynomial, width, true);
    break;
  case CastKind::Truncate:
    return integer(a.polynomial, width, fits(width, /*nonNegative=*/false));
  }
  return other("ext" + std::to_string(width) + "(" + a.key + ")");
}

std::optional<bool> SymbolicThreadEvaluator::decideComparison(
    const SymbolicValue &a, const SymbolicValue &b, unsigned predicateValue) {
  auto predicate = static_cast<arith::CmpIPredicate>(predicateValue);
  if (a.kind != SymbolicValue::Kind::Integer ||
      b.kind != SymbolicValue::Kind::Integer || a.width != b.width)
    return std::nullopt;
  Polynomial difference = (a.polynomial - b.polynomial).truncated(a.width);
  bool isEquality = predicate == arith::CmpIPredicate::eq ||
                    predicate == arith::CmpIPredicate::ne;
  // Equal bits or not, whatever wrapped.
  if (std::optional<int64_t> c = difference.getConstant(); c && isEquality)
    return (*c == 0) == (predicate == arith::CmpIPredicate::eq);
  if (!a.exact || !b.exact)
    return std::nullopt;
  std::optional<std::pair<APInt, APInt>> ra = range(a.polynomial);
  std::optional<std::pair<APInt, APInt>> rb = range(b.polynomial);
  std::optional<std::pair<APInt, APInt>> rd =
      range(a.polynomial - b.polynomial);
  if (!ra || !rb || !rd)
    return std::nullopt;
  bool unsignedPredicate = predicate == arith::CmpIPredicate::ult ||
                           predicate == arith::CmpIPredicate::ule ||
                           predicate == arith::CmpIPredicate::ugt ||
                           predicate == arith::CmpIPredicate::uge;
  // Unsigned comparisons of values known not negative are signed ones.
  if (unsignedPredicate && (ra->first.isNegative() || rb->first.isNegative()))
    return std::nullopt;
  const APInt &lo = rd->first, &hi = rd->second;
  auto decide = [](bool always, bool never) -> std::optional<bool> {
    if (always)
      return true;
    if (never)
      return false;
    return std::nullopt;
  };
  switch (predicate) {
  case arith::CmpIPredicate::eq:
    return decide(lo.isZero() && hi.isZero(),
                  lo.isStrictlyPositive() || hi.isNegative());
  case arith::CmpIPredicate::ne:
    return decide(lo.isStrictlyPositive() || hi.isNegative(),
                  lo.isZero() && hi.isZero());
  case arith::CmpIPredicate::slt:
  case arith::CmpIPredicate::ult:
    return decide(hi.isNegative(), !lo.isNegative());
  case arith::CmpIPredicate::sle:
  case arith::CmpIPredicate::ule:
    return decide(!hi.isStrictlyPositive(), lo.isStrictlyPositive());
  case arith::CmpIPredicate::sgt:
  case arith::CmpIPredicate::ugt:
    return decide(lo.isStrictlyPositive(), !hi.isStrictlyPositive());
  case arith::CmpIPredicate::sge:
  case arith::CmpIPredicate::uge:
    return decide(!lo.isNegative(), hi.isNegative());
  }
  return std::nullopt;
}

int SymbolicThreadEvaluator::computeComparison(Value value, unsigned depth) {
  IntComparison cmp = *matchIntComparison(value);
  int a = evalAt(cmp.lhs, depth + 1);
  int b = evalAt(cmp.rhs, depth + 1);
  if (a < 0 || b < 0)
    return -1;
  if (std::optional<bool> known = decideComparison(
          values[a], values[b], static_cast<unsigned>(cmp.predicate)))
    return integer(Polynomial::constant(*known ? 1 : 0), 1, /*exact=*/false);
  return other("cmp" + std::to_string(static_cast<unsigned>(cmp.predicate)) +
               "(" + values[a].key + "," + values[b].key + ")");
}

int SymbolicThreadEvaluator::computeArithmetic(Operation *op, unsigned depth) {
  int ia = evalAt(op->getOperand(0), depth + 1);
  int ib = evalAt(op->getOperand(1), depth + 1);
  if (ia < 0 || ib < 0)
    return -1;
  const SymbolicValue &a = values[ia], &b = values[ib];
  unsigned width = *getIntWidth(op->getResult(0).getType());
  bool isShift = isa<arith::ShLIOp, LLVM::ShlOp>(op);
  if (a.kind != SymbolicValue::Kind::Integer ||
      b.kind != SymbolicValue::Kind::Integer ||
      (isShift && !b.polynomial.getConstant()))
    return computeGeneric(op, depth);
  Polynomial result;
  if (isa<arith::AddIOp, LLVM::AddOp>(op) || isDisjointOr(op))
    result = a.polynomial + b.polynomial;
  else if (isa<arith::SubIOp, LLVM::SubOp>(op))
    result = a.polynomial - b.polynomial;
  else if (isa<arith::MulIOp, LLVM::MulOp>(op))
    result = a.polynomial * b.polynomial;
  else {
    int64_t amount = *b.polynomial.getConstant();
    if (amount < 0 || amount >= static_cast<int64_t>(width) || amount > 62)
      return computeGeneric(op, depth);
    result = a.polynomial * Polynomial::constant(int64_t(1) << amount);
  }
  // Exact when nothing wrapped: the op's flag says so where the thread ran
  // it, or the result's range fits the width.
  bool exact = a.exact && b.exact;
  if (exact && !(hasNoWrapFlag(op, /*isSigned=*/true) && trusted(op))) {
    std::optional<std::pair<APInt, APInt>> r = range(result);
    exact = r &&
            r->first.sge(APInt::getSignedMinValue(width).sext(kRangeBits)) &&
            r->second.sle(APInt::getSignedMaxValue(width).sext(kRangeBits));
  }
  // An `or disjoint` is a sum only where its flag holds.
  if (isDisjointOr(op) && !trusted(op))
    return computeGeneric(op, depth);
  return integer(result, width, exact);
}

/// Constant and dynamic indices through arrays and the pointee type;
/// struct fields are not followed.
int SymbolicThreadEvaluator::computeGEP(Operation *op, unsigned depth) {
  auto gep = cast<LLVM::GEPOp>(op);
  int base = evalAt(gep.getBase(), depth + 1);
  if (base < 0 || values[base].kind != SymbolicValue::Kind::Pointer)
    return -1;
  Polynomial offset = values[base].polynomial;
  Value root = values[base].root;
  std::optional<SmallVector<int64_t, 4>> steps = getGEPIndexSteps(gep, layout);
  if (!steps)
    return -1;
  for (auto [index, step] : llvm::zip(gep.getIndices(), *steps)) {
    Polynomial count;
    if (auto dynamic = dyn_cast<Value>(index)) {
      int i = evalAt(dynamic, depth + 1);
      // Indices are sign-extended to 64 bits: the polynomial must be the
      // value itself, unless it already is 64 bits wide.
      if (i < 0 || values[i].kind != SymbolicValue::Kind::Integer ||
          (values[i].width < 64 && !values[i].exact))
        return -1;
      count = values[i].polynomial;
    } else {
      count = Polynomial::constant(cast<IntegerAttr>(index).getInt());
    }
    offset = offset + count * Polynomial::constant(step);
  }
  SymbolicValue v;
  v.kind = SymbolicValue::Kind::Pointer;
  v.root = root;
  v.polynomial = offset;
  v.key =
      "p" + std::to_string(unknownIds.lookup(root)) + "(" + offset.str() + ")";
  return add(std::move(v));
}

std::optional<unsigned>
SymbolicThreadEvaluator::decideRegion(Operation *branch) {
  if (forced) {
    auto it = forced->find(branch);
    if (it != forced->end())
      return it->second;
  }
  Value selector;
  if (auto ifOp = dyn_cast<scf::IfOp>(branch))
    selector = ifOp.getCondition();
  else if (auto switchOp = dyn_cast<scf::IndexSwitchOp>(branch))
    selector = switchOp.getArg();
  else if (isa<arith::SelectOp, LLVM::SelectOp>(branch))
    selector = branch->getOperand(0);
  else
    return std::nullopt;
  int s = eval(selector);
  if (s < 0 || values[s].kind != SymbolicValue::Kind::Integer)
    return std::nullopt;
  std::optional<int64_t> c = values[s].polynomial.getConstant();
  if (!c)
    return std::nullopt;
  auto switchOp = dyn_cast<scf::IndexSwitchOp>(branch);
  if (!switchOp)
    return *c != 0 ? 0u : 1u;
  for (auto [i, caseValue] : llvm::enumerate(switchOp.getCases()))
    if (caseValue == *c)
      return static_cast<unsigned>(i);
  return static_cast<unsigned>(switchOp.getNumCases()); // default
}

int SymbolicThreadEvaluator::computeBranchResult(Operation *op, unsigned result,
                                                 unsigned depth) {
  auto chosenValue = [&](unsigned region) -> Value {
    if (isa<arith::SelectOp, LLVM::SelectOp>(op))
      return op->getOperand(1 + region);
    Region &r = getBranchRegion(op, region);
    if (r.empty())
      return Value();
    return r.front().getTerminator()->getOperand(result);
  };
  if (std::optional<unsigned> region = decideRegion(op)) {
    if (op->getNumRegions() != 0)
      decisions[op] = *region;
    Value chosen = chosenValue(*region);
    return chosen ? evalAt(chosen, depth + 1) : -1;
  }
  // Undecided: both values, as a choice.
  if (isa<scf::IndexSwitchOp>(op))
    return -1;
  Value cond = op->getOperand(0);
  int c = evalAt(cond, depth + 1);
  Value thenValue = chosenValue(0), elseValue = chosenValue(1);
  if (c < 0 || !thenValue || !elseValue)
    return -1;
  int t = evalAt(thenValue, depth + 1), e = evalAt(elseValue, depth + 1);
  if (t < 0 || e < 0)
    return -1;
  SymbolicValue v;
  v.key =
      "if(" + values[c].key + "," + values[t].key + "," + values[e].key + ")";
  v.choice = op;
  v.thenValue = t;
  v.elseValue = e;
  return add(std::move(v));
}

/// Loads and other ops without regions: named by the op, its attributes
/// and its operands' values.
int SymbolicThreadEvaluator::computeGeneric(Operation *op, unsigned depth) {
  if (op->getNumRegions() != 0 || op->getNumResults() != 1)
    return -1;
  auto load = dyn_cast<LLVM::LoadOp>(op);
  if (load && (load.getVolatile_() ||
               load.getOrdering() != LLVM::AtomicOrdering::not_atomic))
    return -1;
  if (!load && !isMemoryEffectFree(op) &&
      !isa<LLVM::CallOp, LLVM::CallIntrinsicOp>(op))
    return -1;
  std::string key;
  llvm::raw_string_ostream os(key);
  if (load) {
    int address = evalAt(load.getAddr(), depth + 1);
    if (address < 0)
      return -1;
    os << "load:" << typeString(load.getType()) << "(" << values[address].key
       << ")";
    return other(key);
  }
  os << op->getName().getStringRef();
  // Attributes that do not change the value (alignment, aliasing
  // metadata) could be left out; keeping them only makes fewer values equal.
  os << op->getAttrDictionary() << ":" << typeString(op->getResult(0).getType())
     << "(";
  for (Value operand : op->getOperands()) {
    int i = evalAt(operand, depth + 1);
    if (i < 0)
      return -1;
    os << values[i].key << ",";
  }
  os << ")";
  return other(key);
}
