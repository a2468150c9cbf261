//===- WarpMatrixOps.cpp - wmma for the CPU -------------------------------===//
//
// CUDA leaves the distribution of a wmma fragment's elements over the lanes
// of its warp unspecified: programs may only load, store, fill and combine
// fragments element by element, and multiply them with mma_sync. So the CPU
// picks one that suits it: with E elements, lane l holds the E / 32
// consecutive elements from l * E / 32 on, in row-major order, which is
// part of one row in every shape. A fragment whose registers have room for
// more (the f16 operands of a GPU hold each element twice) keeps zeros in
// the extra slots.
//
// load_matrix_sync and store_matrix_sync then touch each lane's elements
// with ordinary loads and stores. mma_sync needs every lane's operands: each
// lane writes its elements of A and B, converted to the type products are
// computed in, to its warp's part of a shared-memory scratch area, the warp
// synchronizes (__syncwarp), each lane computes its part of a row of D (a
// loop over K around a short vector of sums), and the warp synchronizes
// again before the scratch is reused. Products are computed in float
// (double for f64, 32-bit integers for s8/u8), which holds f16, bf16 and
// tf32 products exactly; tf32 operands keep their 10 leading fraction bits,
// as tensor cores do.
//
//===----------------------------------------------------------------------===//

#include "respec/Frontend/WarpMatrixOps.h"
#include "respec/Transforms/Attributes.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"

#include <optional>

using namespace llvm;

namespace respec {
namespace {

constexpr unsigned kWarpSize = 32;
constexpr unsigned kMaxWarpsPerBlock = 32;

enum class WmmaOp { Load, Store, Mma };

/// The scalar kinds of fragment elements.
enum class Element { F16, BF16, TF32, F32, F64, S8, U8, S32 };

struct Shape {
  unsigned m = 0, n = 0, k = 0;
};

/// What an intrinsic's name says (llvm.nvvm.wmma.<shape>.<op>...).
struct WmmaIntrinsic {
  WmmaOp op;
  Shape shape;
  char fragment = 0; ///< load/store: 'a', 'b', 'c' or 'd'
  bool rowMajor = true;
  Element element = Element::F32;     ///< load/store: the fragment's; mma: A's
  Element accumulator = Element::F32; ///< mma: C's
  Element result = Element::F32;      ///< mma: D's
  bool saturate = false;              ///< mma .satfinite
};

std::optional<Element> parseElement(StringRef token) {
  return StringSwitch<std::optional<Element>>(token)
      .Case("f16", Element::F16)
      .Case("bf16", Element::BF16)
      .Case("tf32", Element::TF32)
      .Case("f32", Element::F32)
      .Case("f64", Element::F64)
      .Case("s8", Element::S8)
      .Case("u8", Element::U8)
      .Case("s32", Element::S32)
      .Default(std::nullopt);
}

std::optional<Shape> parseShape(StringRef token) {
  Shape shape;
  if (!token.consume_front("m") || token.consumeInteger(10, shape.m) ||
      !token.consume_front("n") || token.consumeInteger(10, shape.n) ||
      !token.consume_front("k") || token.consumeInteger(10, shape.k) ||
      !token.empty())
    return std::nullopt;
  return shape;
}

std::optional<WmmaIntrinsic> parseWmmaName(StringRef name) {
  if (!name.consume_front("llvm.nvvm.wmma."))
    return std::nullopt;
  SmallVector<StringRef, 8> parts;
  name.split(parts, '.');
  if (parts.size() < 4)
    return std::nullopt;
  WmmaIntrinsic result;
  std::optional<Shape> shape = parseShape(parts[0]);
  if (!shape)
    return std::nullopt;
  result.shape = *shape;
  ArrayRef<StringRef> rest = ArrayRef(parts).drop_front(2);
  if (parts[1] == "load" || parts[1] == "store") {
    // <a|b|c|d>.<row|col>.stride.<type>[.p<N>]
    result.op = parts[1] == "load" ? WmmaOp::Load : WmmaOp::Store;
    if (rest.size() < 4 || rest[0].size() != 1 || rest[2] != "stride")
      return std::nullopt;
    result.fragment = rest[0][0];
    if (result.op == WmmaOp::Load ? !StringRef("abc").contains(result.fragment)
                                  : result.fragment != 'd')
      return std::nullopt;
    if (rest[1] != "row" && rest[1] != "col")
      return std::nullopt;
    result.rowMajor = rest[1] == "row";
    std::optional<Element> element = parseElement(rest[3]);
    if (!element || rest.size() > 5 ||
        (rest.size() == 5 && !rest[4].starts_with("p")))
      return std::nullopt;
    result.element = *element;
    return result;
  }
  if (parts[1] != "mma")
    return std::nullopt;
  // <row|col>.<row|col>[.rn].<types>[.satfinite]; the layouts only say how
  // the GPU's registers hold the operands, which the CPU loads in one order.
  result.op = WmmaOp::Mma;
  SmallVector<StringRef, 4> types(rest.drop_front(2));
  if (!types.empty() && types.back() == "satfinite") {
    result.saturate = true;
    types.pop_back();
  }
  if (!types.empty() && types.front() == "rn")
    types.erase(types.begin());
  if (types.size() == 2) {
    // f16 operands: <D type>.<C type>.
    std::optional<Element> d = parseElement(types[0]);
    std::optional<Element> c = parseElement(types[1]);
    if (!d || !c || (*d != Element::F16 && *d != Element::F32) ||
        (*c != Element::F16 && *c != Element::F32))
      return std::nullopt;
    result.element = Element::F16;
    result.result = *d;
    result.accumulator = *c;
    return result;
  }
  if (types.size() != 1)
    return std::nullopt;
  std::optional<Element> element = parseElement(types[0]);
  if (!element)
    return std::nullopt;
  result.element = *element;
  switch (*element) {
  case Element::BF16:
  case Element::TF32:
    result.accumulator = result.result = Element::F32;
    return result;
  case Element::S8:
  case Element::U8:
    result.accumulator = result.result = Element::S32;
    return result;
  case Element::F64:
    result.accumulator = result.result = Element::F64;
    return result;
  default:
    return std::nullopt;
  }
}

Type *scalarType(Element element, LLVMContext &context) {
  switch (element) {
  case Element::F16:
    return Type::getHalfTy(context);
  case Element::BF16:
    return Type::getBFloatTy(context);
  case Element::TF32:
  case Element::F32:
    return Type::getFloatTy(context);
  case Element::F64:
    return Type::getDoubleTy(context);
  case Element::S8:
  case Element::U8:
    return Type::getInt8Ty(context);
  case Element::S32:
    return Type::getInt32Ty(context);
  }
  llvm_unreachable("unknown element");
}

/// The type products and sums are computed in.
Type *computeType(Element element, LLVMContext &context) {
  switch (element) {
  case Element::F64:
    return Type::getDoubleTy(context);
  case Element::S8:
  case Element::U8:
  case Element::S32:
    return Type::getInt32Ty(context);
  default:
    return Type::getFloatTy(context);
  }
}

/// Rows and columns of a fragment's matrix: A is M x K, B is K x N, the
/// accumulators M x N.
std::pair<unsigned, unsigned> fragmentExtent(Shape shape, char fragment) {
  switch (fragment) {
  case 'a':
    return {shape.m, shape.k};
  case 'b':
    return {shape.k, shape.n};
  default:
    return {shape.m, shape.n};
  }
}

/// How many scalars of `scalar` one register of `type` holds.
unsigned scalarsPerRegister(Type *type, Type *scalar) {
  return type->getPrimitiveSizeInBits() / scalar->getPrimitiveSizeInBits();
}

/// The scalars of one fragment register (a `<2 x half>`, an i32 holding
/// two bf16, four 8-bit integers or one tf32, a float, ...).
void unpackRegister(IRBuilder<> &b, Value *reg, Type *scalar,
                    SmallVectorImpl<Value *> &scalars) {
  Type *type = reg->getType();
  if (type == scalar) {
    scalars.push_back(reg);
    return;
  }
  unsigned count = scalarsPerRegister(type, scalar);
  if (count == 1) {
    scalars.push_back(b.CreateBitCast(reg, scalar));
    return;
  }
  Value *vector = b.CreateBitCast(reg, FixedVectorType::get(scalar, count));
  for (unsigned i = 0; i < count; ++i)
    scalars.push_back(b.CreateExtractElement(vector, i));
}

/// A register of `type` made of `scalars` (inverse of unpackRegister).
Value *packRegister(IRBuilder<> &b, ArrayRef<Value *> scalars, Type *type) {
  if (scalars.size() == 1)
    return scalars[0]->getType() == type ? scalars[0]
                                         : b.CreateBitCast(scalars[0], type);
  Value *vector = PoisonValue::get(
      FixedVectorType::get(scalars[0]->getType(), scalars.size()));
  for (auto [i, scalar] : llvm::enumerate(scalars))
    vector = b.CreateInsertElement(vector, scalar, i);
  return vector->getType() == type ? vector : b.CreateBitCast(vector, type);
}

/// The types of the registers a call returns (a struct of them, or one).
SmallVector<Type *> resultRegisterTypes(CallInst &call) {
  Type *type = call.getType();
  if (auto *structType = dyn_cast<StructType>(type))
    return SmallVector<Type *>(structType->elements());
  return {type};
}

/// Builds the call's result (a struct of registers, or one) from the
/// scalars of its slots.
Value *packResult(IRBuilder<> &b, CallInst &call, ArrayRef<Value *> slots,
                  Type *scalar) {
  SmallVector<Type *> registers = resultRegisterTypes(call);
  SmallVector<Value *> packed;
  size_t next = 0;
  for (Type *reg : registers) {
    unsigned count = scalarsPerRegister(reg, scalar);
    packed.push_back(packRegister(b, slots.slice(next, count), reg));
    next += count;
  }
  if (!isa<StructType>(call.getType()))
    return packed.front();
  Value *result = PoisonValue::get(call.getType());
  for (auto [i, value] : llvm::enumerate(packed))
    result = b.CreateInsertValue(result, value, i);
  return result;
}

/// Rewrites the wmma intrinsics of one module.
class WarpMatrixLowering {
public:
  explicit WarpMatrixLowering(Module &module)
      : module(module), context(module.getContext()) {}

  bool run();

private:
  Value *laneId(IRBuilder<> &b);
  Value *warpScratch(IRBuilder<> &b);
  Value *elementIndex(IRBuilder<> &b, Value *lane, unsigned slots,
                      unsigned slot);
  Value *memoryOffset(IRBuilder<> &b, Value *element, unsigned columns,
                      bool rowMajor, Value *stride);
  bool lowerLoad(CallInst &call, const WmmaIntrinsic &wmma);
  bool lowerStore(CallInst &call, const WmmaIntrinsic &wmma);
  bool lowerMma(CallInst &call, const WmmaIntrinsic &wmma);
  Value *toCompute(IRBuilder<> &b, Value *scalar, Element element);
  Value *fromCompute(IRBuilder<> &b, Value *value, Element element,
                     bool saturate);
  void syncWarp(IRBuilder<> &b);

  Module &module;
  LLVMContext &context;
  GlobalVariable *scratch = nullptr;
  uint64_t scratchBytesPerWarp = 0;
};

Value *WarpMatrixLowering::laneId(IRBuilder<> &b) {
  return b.CreateIntrinsic(Intrinsic::nvvm_read_ptx_sreg_laneid,
                           ArrayRef<Type *>{}, ArrayRef<Value *>{});
}

/// This warp's part of the scratch area: the warp of a thread is its linear
/// index in the block over 32.
Value *WarpMatrixLowering::warpScratch(IRBuilder<> &b) {
  auto read = [&](Intrinsic::ID id) {
    return b.CreateIntrinsic(id, ArrayRef<Type *>{}, ArrayRef<Value *>{});
  };
  Value *linear = b.CreateAdd(
      read(Intrinsic::nvvm_read_ptx_sreg_tid_x),
      b.CreateMul(
          read(Intrinsic::nvvm_read_ptx_sreg_ntid_x),
          b.CreateAdd(read(Intrinsic::nvvm_read_ptx_sreg_tid_y),
                      b.CreateMul(read(Intrinsic::nvvm_read_ptx_sreg_ntid_y),
                                  read(Intrinsic::nvvm_read_ptx_sreg_tid_z)))));
  Value *warp = b.CreateUDiv(linear, b.getInt32(kWarpSize));
  Value *offset = b.CreateMul(b.CreateZExt(warp, b.getInt64Ty()),
                              b.getInt64(scratchBytesPerWarp));
  return b.CreateGEP(b.getInt8Ty(), scratch, offset);
}

/// The matrix element that slot `slot` of lane `lane` holds, where each
/// lane holds `slots` of them.
Value *WarpMatrixLowering::elementIndex(IRBuilder<> &b, Value *lane,
                                        unsigned slots, unsigned slot) {
  return b.CreateAdd(b.CreateMul(lane, b.getInt32(slots)), b.getInt32(slot));
}

/// Where element `element` (row-major in a rows x columns matrix) lies in
/// memory stored with leading dimension `stride`.
Value *WarpMatrixLowering::memoryOffset(IRBuilder<> &b, Value *element,
                                        unsigned columns, bool rowMajor,
                                        Value *stride) {
  Value *row = b.CreateUDiv(element, b.getInt32(columns));
  Value *column = b.CreateURem(element, b.getInt32(columns));
  Value *ldm = b.CreateZExt(stride, b.getInt64Ty());
  Value *major = b.CreateZExt(rowMajor ? row : column, b.getInt64Ty());
  Value *minor = b.CreateZExt(rowMajor ? column : row, b.getInt64Ty());
  return b.CreateAdd(b.CreateMul(major, ldm), minor);
}

bool WarpMatrixLowering::lowerLoad(CallInst &call, const WmmaIntrinsic &wmma) {
  if (call.arg_size() != 2)
    return false;
  Type *scalar = scalarType(wmma.element, context);
  unsigned slots = 0;
  for (Type *reg : resultRegisterTypes(call))
    slots += scalarsPerRegister(reg, scalar);
  auto [rows, columns] = fragmentExtent(wmma.shape, wmma.fragment);
  unsigned used = rows * columns / kWarpSize;
  if (used > slots)
    return false;
  IRBuilder<> b(&call);
  Value *lane = laneId(b);
  SmallVector<Value *> values;
  for (unsigned slot = 0; slot < slots; ++slot) {
    if (slot >= used) {
      values.push_back(Constant::getNullValue(scalar));
      continue;
    }
    Value *offset = memoryOffset(b, elementIndex(b, lane, used, slot), columns,
                                 wmma.rowMajor, call.getArgOperand(1));
    Value *address = b.CreateGEP(scalar, call.getArgOperand(0), offset);
    values.push_back(b.CreateLoad(scalar, address));
  }
  call.replaceAllUsesWith(packResult(b, call, values, scalar));
  call.eraseFromParent();
  return true;
}

bool WarpMatrixLowering::lowerStore(CallInst &call, const WmmaIntrinsic &wmma) {
  if (call.arg_size() < 3)
    return false;
  Type *scalar = scalarType(wmma.element, context);
  IRBuilder<> b(&call);
  SmallVector<Value *> values;
  for (unsigned i = 1; i + 1 < call.arg_size(); ++i)
    unpackRegister(b, call.getArgOperand(i), scalar, values);
  auto [rows, columns] = fragmentExtent(wmma.shape, wmma.fragment);
  unsigned used = rows * columns / kWarpSize;
  if (used > values.size())
    return false;
  Value *lane = laneId(b);
  Value *stride = call.getArgOperand(call.arg_size() - 1);
  for (unsigned slot = 0; slot < used; ++slot) {
    Value *offset = memoryOffset(b, elementIndex(b, lane, used, slot), columns,
                                 wmma.rowMajor, stride);
    b.CreateStore(values[slot],
                  b.CreateGEP(scalar, call.getArgOperand(0), offset));
  }
  call.eraseFromParent();
  return true;
}

Value *WarpMatrixLowering::toCompute(IRBuilder<> &b, Value *scalar,
                                     Element element) {
  switch (element) {
  case Element::F16:
  case Element::BF16:
    return b.CreateFPExt(scalar, b.getFloatTy());
  case Element::TF32: {
    // Tensor cores read the sign, the exponent and 10 fraction bits.
    Value *bits = b.CreateBitCast(scalar, b.getInt32Ty());
    return b.CreateBitCast(b.CreateAnd(bits, b.getInt32(0xffffe000u)),
                           b.getFloatTy());
  }
  case Element::S8:
    return b.CreateSExt(scalar, b.getInt32Ty());
  case Element::U8:
    return b.CreateZExt(scalar, b.getInt32Ty());
  default:
    return scalar;
  }
}

Value *WarpMatrixLowering::fromCompute(IRBuilder<> &b, Value *value,
                                       Element element, bool saturate) {
  switch (element) {
  case Element::F16: {
    Value *half = b.CreateFPTrunc(value, b.getHalfTy());
    if (!saturate)
      return half;
    // .satfinite: infinities become the largest finite values (NaN stays).
    Value *limit = ConstantFP::get(b.getHalfTy(), 65504.0);
    return b.CreateMinNum(b.CreateMaxNum(half, b.CreateFNeg(limit)), limit);
  }
  default:
    return value;
  }
}

void WarpMatrixLowering::syncWarp(IRBuilder<> &b) {
  b.CreateIntrinsic(Intrinsic::nvvm_bar_warp_sync, {}, {b.getInt32(-1)});
}

bool WarpMatrixLowering::lowerMma(CallInst &call, const WmmaIntrinsic &wmma) {
  Shape shape = wmma.shape;
  Type *operand = scalarType(wmma.element, context);
  Type *accumulator = scalarType(wmma.accumulator, context);
  Type *result = scalarType(wmma.result, context);
  Type *compute = computeType(wmma.element, context);
  unsigned aUsed = shape.m * shape.k / kWarpSize;
  unsigned bUsed = shape.k * shape.n / kWarpSize;
  unsigned cUsed = shape.m * shape.n / kWarpSize;

  // The operands' registers: A's, then B's, then C's. f16 operands fill 8
  // registers each whatever the shape; the others exactly their elements.
  unsigned cRegisters = 0, cSlots = 0;
  while (cSlots < cUsed && cRegisters < call.arg_size()) {
    Value *reg = call.getArgOperand(call.arg_size() - 1 - cRegisters);
    cSlots += scalarsPerRegister(reg->getType(), accumulator);
    ++cRegisters;
  }
  unsigned perRegister =
      scalarsPerRegister(call.getArgOperand(0)->getType(), operand);
  unsigned aRegisters =
      wmma.element == Element::F16 ? 8 : aUsed / std::max(perRegister, 1u);
  unsigned bRegisters =
      wmma.element == Element::F16 ? 8 : bUsed / std::max(perRegister, 1u);
  if (cSlots != cUsed ||
      aRegisters + bRegisters + cRegisters != call.arg_size())
    return false;

  IRBuilder<> b(&call);
  auto unpack = [&](unsigned first, unsigned count, Type *scalar) {
    SmallVector<Value *> scalars;
    for (unsigned i = first; i < first + count; ++i)
      unpackRegister(b, call.getArgOperand(i), scalar, scalars);
    return scalars;
  };
  SmallVector<Value *> a = unpack(0, aRegisters, operand);
  SmallVector<Value *> bValues = unpack(aRegisters, bRegisters, operand);
  SmallVector<Value *> c =
      unpack(aRegisters + bRegisters, cRegisters, accumulator);
  if (a.size() < aUsed || bValues.size() < bUsed)
    return false;

  // Every lane's operands to the warp's scratch, in the type products are
  // computed in: A (row-major M x K) first, then B (row-major K x N).
  bool integer = compute->isIntegerTy();
  bool wide = integer && wmma.saturate;
  Value *lane = laneId(b);
  Value *base = warpScratch(b);
  Value *bBase = b.CreateGEP(compute, base, b.getInt64(shape.m * shape.k));
  for (unsigned slot = 0; slot < aUsed; ++slot)
    b.CreateStore(
        toCompute(b, a[slot], wmma.element),
        b.CreateGEP(compute, base, elementIndex(b, lane, aUsed, slot)));
  for (unsigned slot = 0; slot < bUsed; ++slot)
    b.CreateStore(
        toCompute(b, bValues[slot], wmma.element),
        b.CreateGEP(compute, bBase, elementIndex(b, lane, bUsed, slot)));
  syncWarp(b);

  // The lane's elements of D are cUsed consecutive ones of row `row` from
  // column `column` on (cUsed divides N in every shape): a loop over K,
  // each step adding A[row][k] times cUsed consecutive elements of row k of
  // B to cUsed sums.
  Type *sumType = wide ? b.getInt64Ty() : compute;
  Value *first = b.CreateMul(lane, b.getInt32(cUsed));
  Value *row = b.CreateUDiv(first, b.getInt32(shape.n));
  Value *column = b.CreateURem(first, b.getInt32(shape.n));
  Value *aRow = b.CreateMul(row, b.getInt32(shape.k));
  SmallVector<Value *> initial;
  for (unsigned slot = 0; slot < cUsed; ++slot) {
    Value *sum = toCompute(b, c[slot], wmma.accumulator);
    initial.push_back(wide ? b.CreateSExt(sum, sumType) : sum);
  }
  BasicBlock *before = b.GetInsertBlock();
  BasicBlock *after = before->splitBasicBlock(&call, "wmma.done");
  before->getTerminator()->eraseFromParent();
  BasicBlock *loop =
      BasicBlock::Create(context, "wmma.k", before->getParent(), after);
  b.SetInsertPoint(before);
  b.CreateBr(loop);
  b.SetInsertPoint(loop);
  PHINode *k = b.CreatePHI(b.getInt32Ty(), 2, "k");
  k->addIncoming(b.getInt32(0), before);
  SmallVector<PHINode *> sums;
  for (Value *value : initial) {
    sums.push_back(b.CreatePHI(sumType, 2, "sum"));
    sums.back()->addIncoming(value, before);
  }
  auto widen = [&](Value *value) {
    return wide ? b.CreateSExt(value, sumType) : value;
  };
  Value *x = widen(
      b.CreateLoad(compute, b.CreateGEP(compute, base, b.CreateAdd(aRow, k))));
  Value *bRow = b.CreateAdd(b.CreateMul(k, b.getInt32(shape.n)), column);
  for (unsigned slot = 0; slot < cUsed; ++slot) {
    Value *y = widen(b.CreateLoad(
        compute,
        b.CreateGEP(compute, bBase, b.CreateAdd(bRow, b.getInt32(slot)))));
    Value *next = integer ? b.CreateAdd(sums[slot], b.CreateMul(x, y))
                          : b.CreateFAdd(sums[slot], b.CreateFMul(x, y));
    sums[slot]->addIncoming(next, loop);
  }
  Value *kNext = b.CreateAdd(k, b.getInt32(1));
  k->addIncoming(kNext, loop);
  b.CreateCondBr(b.CreateICmpULT(kNext, b.getInt32(shape.k)), loop, after);

  b.SetInsertPoint(&call);
  SmallVector<Value *> d;
  for (PHINode *sum : sums) {
    Value *value = sum->getIncomingValueForBlock(loop);
    if (wide) {
      // .satfinite: the sum clamped to the 32-bit range.
      Value *low = b.getInt64(INT32_MIN), *high = b.getInt64(INT32_MAX);
      value = b.CreateTrunc(
          b.CreateSelect(
              b.CreateICmpSLT(value, low), low,
              b.CreateSelect(b.CreateICmpSGT(value, high), high, value)),
          b.getInt32Ty());
    }
    d.push_back(fromCompute(b, value, wmma.result, wmma.saturate));
  }
  // No lane may overwrite the scratch (its next mma) before all have read.
  syncWarp(b);
  call.replaceAllUsesWith(packResult(b, call, d, result));
  call.eraseFromParent();
  return true;
}

bool WarpMatrixLowering::run() {
  SmallVector<std::pair<CallInst *, WmmaIntrinsic>> calls;
  for (Function &function : module) {
    std::optional<WmmaIntrinsic> wmma = parseWmmaName(function.getName());
    if (!function.isDeclaration() || !wmma)
      continue;
    for (User *user : function.users())
      if (auto *call = dyn_cast<CallInst>(user);
          call && call->getCalledFunction() == &function)
        calls.push_back({call, *wmma});
    if (wmma->op == WmmaOp::Mma) {
      uint64_t elements =
          uint64_t(wmma->shape.k) * (wmma->shape.m + wmma->shape.n);
      uint64_t bytes = elements * module.getDataLayout().getTypeAllocSize(
                                      computeType(wmma->element, context));
      scratchBytesPerWarp = std::max(scratchBytesPerWarp, alignTo(bytes, 16));
    }
  }
  if (calls.empty())
    return false;
  if (scratchBytesPerWarp) {
    auto *type = ArrayType::get(Type::getInt8Ty(context),
                                scratchBytesPerWarp * kMaxWarpsPerBlock);
    scratch = new GlobalVariable(
        module, type, /*isConstant=*/false, GlobalValue::InternalLinkage,
        UndefValue::get(type), mlir::respec::kWarpMatrixScratchName, nullptr,
        GlobalValue::NotThreadLocal, mlir::respec::kShared);
    scratch->setAlignment(Align(16));
  }
  bool changed = false;
  for (auto &[call, wmma] : calls) {
    switch (wmma.op) {
    case WmmaOp::Load:
      changed |= lowerLoad(*call, wmma);
      break;
    case WmmaOp::Store:
      changed |= lowerStore(*call, wmma);
      break;
    case WmmaOp::Mma:
      changed |= lowerMma(*call, wmma);
      break;
    }
  }
  if (scratch && scratch->use_empty())
    scratch->eraseFromParent();
  return changed;
}

} // namespace

bool lowerWarpMatrixOps(Module &module) {
  return WarpMatrixLowering(module).run();
}

} // namespace respec
