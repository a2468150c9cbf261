//===- InlinePTX.cpp - Inline PTX assembly as LLVM IR for the CPU ---------===//
//
// CUDA's headers implement much of the device library with inline PTX under
// __CUDA_ARCH__: half and bfloat16 arithmetic and conversions, cache-hint
// loads and stores, funnel shifts, dot products, SIMD video instructions,
// CUB's shuffles, libcu++'s scoped atomics. PTX cannot be assembled for the
// CPU, so this file translates such statements into LLVM IR with the PTX ISA
// semantics, before the device module is inlined and raised.
//
// A statement is parsed generally (scopes, `.reg` declarations, predicate
// guards, opcode with its dot modifiers, operands) and executed symbolically
// over a small register environment. The translation of one statement goes
// into a fresh internal function with the signature of the `asm` call, so an
// unknown instruction discards that function and leaves the module as it was;
// the CPU back end then names the instruction in its error.
//
// Warp-level instructions become the NVVM intrinsics clang itself emits for
// the CUDA builtins, which respec's warp machinery lowers; arithmetic becomes
// ordinary LLVM IR. Narrow floating-point results are computed exactly (or
// rounded to odd) in double precision and rounded once to the destination
// format in the requested rounding mode, which gives the correctly rounded
// result of the hardware for every mode.
//
//===----------------------------------------------------------------------===//

#include "respec/Frontend/InlinePTX.h"
#include "respec/Transforms/Attributes.h"

#include "respec_rt/abi.h"

#include <cstddef>

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/ReplaceConstant.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"

#include <array>
#include <functional>
#include <map>
#include <optional>

using namespace llvm;

namespace respec {
namespace {

//===----------------------------------------------------------------------===//
// Parsing
//===----------------------------------------------------------------------===//

/// One operand of a PTX instruction as written.
struct PtxOperand {
  /// Tuple: `[handle, {coordinates}]`, a texture or surface access.
  enum Kind { Register, Integer, Float, Address, Vector, Sink, Tuple };
  Kind kind = Register;
  /// Register name (`$N` for the asm operands), or an address's base.
  std::string name;
  /// `!p`: the negation of a predicate.
  bool negated = false;
  /// `d|p`: the second destination (shfl, setp).
  std::string pairName;
  /// Integer immediate, or an address's byte offset.
  int64_t integer = 0;
  /// Float immediate: its bits and their width (`0f...` 32, `0d...` 64).
  uint64_t floatBits = 0;
  unsigned floatWidth = 0;
  /// The elements of `{a, b, ...}` and of `[a, b]`.
  std::vector<PtxOperand> elements;
};

/// One statement of an asm string.
struct PtxStatement {
  enum Kind { Instruction, Declaration, OpenScope, CloseScope };
  Kind kind = Instruction;
  /// The statement as written, for diagnostics.
  std::string text;
  /// `@p` / `@!p` guard.
  std::string guard;
  bool guardNegated = false;
  std::string opcode;
  /// The dot-separated modifiers after the opcode (`rn`, `f16`, `global`).
  SmallVector<std::string, 6> modifiers;
  SmallVector<PtxOperand, 4> operands;
  /// Declaration: the declared type and names (`r<3>` expands to r0..r2).
  std::string declaredType;
  SmallVector<std::string, 4> declaredNames;
  /// Parsing failed; the statement can only be reported.
  bool malformed = false;

  bool has(StringRef modifier) const {
    return llvm::is_contained(modifiers, modifier);
  }
};

static bool isIdentifierChar(char c) {
  return isAlnum(c) || c == '_' || c == '$' || c == '%' || c == '.';
}

/// Splits `text` at top-level commas (outside braces and brackets).
static SmallVector<StringRef, 4> splitOperands(StringRef text) {
  SmallVector<StringRef, 4> parts;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '{' || c == '[')
      ++depth;
    else if (c == '}' || c == ']')
      --depth;
    else if (c == ',' && depth == 0) {
      parts.push_back(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  StringRef last = text.substr(start).trim();
  if (!last.empty() || !parts.empty())
    parts.push_back(last);
  return parts;
}

/// Parses a PTX integer literal: decimal, 0x hexadecimal, 0b binary or
/// 0-prefixed octal, optionally negative and with a `U` suffix.
static std::optional<int64_t> parseInteger(StringRef text) {
  bool negative = text.consume_front("-");
  text.consume_back("U");
  text.consume_back("u");
  unsigned radix = 10;
  if (text.consume_front("0x") || text.consume_front("0X"))
    radix = 16;
  else if (text.consume_front("0b") || text.consume_front("0B"))
    radix = 2;
  else if (text.size() > 1 && text.starts_with("0"))
    radix = 8;
  uint64_t value;
  if (text.empty() || text.getAsInteger(radix, value))
    return std::nullopt;
  return negative ? -static_cast<int64_t>(value) : static_cast<int64_t>(value);
}

static std::optional<PtxOperand> parseOperand(StringRef text);

/// `[base]`, `[base+offset]`, `[base-offset]`.
static std::optional<PtxOperand> parseAddress(StringRef inner) {
  PtxOperand operand;
  operand.kind = PtxOperand::Address;
  inner = inner.trim();
  size_t sign = inner.find_first_of("+-", 1);
  StringRef base = inner.substr(0, sign).trim();
  if (sign != StringRef::npos) {
    std::optional<int64_t> offset =
        parseInteger(inner.substr(sign + 1).trim());
    if (!offset)
      return std::nullopt;
    operand.integer = inner[sign] == '-' ? -*offset : *offset;
  }
  if (base.empty() || !llvm::all_of(base, isIdentifierChar))
    return std::nullopt;
  operand.name = base.str();
  return operand;
}

static std::optional<PtxOperand> parseOperand(StringRef text) {
  PtxOperand operand;
  if (text.empty())
    return std::nullopt;
  if (text.consume_front("{")) {
    if (!text.consume_back("}"))
      return std::nullopt;
    operand.kind = PtxOperand::Vector;
    for (StringRef element : splitOperands(text)) {
      std::optional<PtxOperand> parsed = parseOperand(element);
      if (!parsed)
        return std::nullopt;
      operand.elements.push_back(*parsed);
    }
    return operand;
  }
  if (text.consume_front("[")) {
    if (!text.consume_back("]"))
      return std::nullopt;
    SmallVector<StringRef, 4> parts = splitOperands(text);
    if (parts.size() < 2)
      return parseAddress(text);
    operand.kind = PtxOperand::Tuple;
    for (StringRef part : parts) {
      std::optional<PtxOperand> parsed = parseOperand(part);
      if (!parsed)
        return std::nullopt;
      operand.elements.push_back(*parsed);
    }
    return operand;
  }
  if (text == "_") {
    operand.kind = PtxOperand::Sink;
    return operand;
  }
  // Float immediates: 0fXXXXXXXX (f32 bits), 0dXXXXXXXXXXXXXXXX (f64 bits).
  if (text.size() > 2 && text[0] == '0' && tolower(text[1]) == 'f' &&
      text.size() == 10) {
    operand.kind = PtxOperand::Float;
    operand.floatWidth = 32;
    return text.substr(2).getAsInteger(16, operand.floatBits)
               ? std::nullopt
               : std::optional<PtxOperand>(operand);
  }
  if (text.size() > 2 && text[0] == '0' && tolower(text[1]) == 'd' &&
      text.size() == 18) {
    operand.kind = PtxOperand::Float;
    operand.floatWidth = 64;
    return text.substr(2).getAsInteger(16, operand.floatBits)
               ? std::nullopt
               : std::optional<PtxOperand>(operand);
  }
  if (isDigit(text[0]) || (text[0] == '-' && text.size() > 1)) {
    if (std::optional<int64_t> value = parseInteger(text)) {
      operand.kind = PtxOperand::Integer;
      operand.integer = *value;
      return operand;
    }
    double real;
    if (text.getAsDouble(real))
      return std::nullopt;
    operand.kind = PtxOperand::Float;
    operand.floatWidth = 64;
    operand.floatBits = llvm::bit_cast<uint64_t>(real);
    return operand;
  }
  operand.negated = text.consume_front("!");
  auto [first, second] = text.split('|');
  first = first.trim();
  second = second.trim();
  if (first.empty() || !llvm::all_of(first, isIdentifierChar) ||
      !llvm::all_of(second, isIdentifierChar))
    return std::nullopt;
  // `${0:modifier}` and other operand modifiers are not PTX.
  operand.name = first.str();
  operand.pairName = second.str();
  return operand;
}

/// `.reg .b32 a, b<2>;` (also `.reg.b32`).
static bool parseDeclaration(StringRef text, PtxStatement &statement) {
  statement.kind = PtxStatement::Declaration;
  SmallVector<StringRef, 4> directives;
  while (text.starts_with(".")) {
    size_t end = 1;
    while (end < text.size() && text[end] != ' ' && text[end] != '\t' &&
           text[end] != '\n')
      ++end;
    StringRef head = text.substr(0, end);
    text = text.substr(end).ltrim();
    SmallVector<StringRef, 2> pieces;
    head.drop_front().split(pieces, '.');
    directives.append(pieces.begin(), pieces.end());
  }
  if (directives.size() != 2 || directives[0] != "reg")
    return false;
  statement.declaredType = directives[1].str();
  for (StringRef name : splitOperands(text)) {
    auto [base, count] = name.split('<');
    if (base.empty() || !llvm::all_of(base, isIdentifierChar))
      return false;
    if (count.empty()) {
      statement.declaredNames.push_back(base.str());
      continue;
    }
    unsigned n;
    if (!count.consume_back(">") || count.trim().getAsInteger(10, n) ||
        n > 1024)
      return false;
    for (unsigned i = 0; i < n; ++i)
      statement.declaredNames.push_back((base + Twine(i)).str());
  }
  return !statement.declaredNames.empty();
}

/// Parses one statement (without its `;`).
static PtxStatement parseStatement(StringRef text) {
  PtxStatement statement;
  statement.text = text.str();
  if (text.starts_with(".")) {
    statement.malformed = !parseDeclaration(text, statement);
    return statement;
  }
  if (text.consume_front("@")) {
    statement.guardNegated = text.consume_front("!");
    size_t end = 0;
    while (end < text.size() && isIdentifierChar(text[end]))
      ++end;
    statement.guard = text.substr(0, end).str();
    text = text.substr(end).ltrim();
    if (statement.guard.empty()) {
      statement.malformed = true;
      return statement;
    }
  }
  size_t end = 0;
  while (end < text.size() && !isSpace(text[end]))
    ++end;
  StringRef head = text.substr(0, end);
  // Labels and branches would need a control flow graph of the asm.
  if (head.ends_with(":")) {
    statement.malformed = true;
    return statement;
  }
  SmallVector<StringRef, 6> pieces;
  head.split(pieces, '.');
  statement.opcode = pieces.front().str();
  for (StringRef modifier : ArrayRef(pieces).drop_front())
    statement.modifiers.push_back(modifier.str());
  for (StringRef operandText : splitOperands(text.substr(end))) {
    std::optional<PtxOperand> operand = parseOperand(operandText);
    if (!operand) {
      statement.malformed = true;
      return statement;
    }
    statement.operands.push_back(*operand);
  }
  return statement;
}

/// Removes `//` and `/* */` comments.
static std::string stripComments(StringRef text) {
  std::string result;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text.substr(i).starts_with("//")) {
      i = text.find('\n', i);
      if (i == StringRef::npos)
        break;
    } else if (text.substr(i).starts_with("/*")) {
      i = text.find("*/", i);
      if (i == StringRef::npos)
        break;
      ++i;
      continue;
    }
    result += text[i];
  }
  return result;
}

/// Splits an asm string into statements and scope braces. A `{` that starts
/// a statement opens a scope; one inside a statement is a vector operand.
static std::vector<PtxStatement> parsePTX(StringRef asmString) {
  std::string text = stripComments(asmString);
  std::vector<PtxStatement> statements;
  StringRef rest(text);
  while (true) {
    rest = rest.ltrim();
    if (rest.empty())
      break;
    if (rest.consume_front("{")) {
      statements.emplace_back().kind = PtxStatement::OpenScope;
      continue;
    }
    if (rest.consume_front("}")) {
      statements.emplace_back().kind = PtxStatement::CloseScope;
      continue;
    }
    if (rest.consume_front(";"))
      continue;
    size_t end = 0;
    int depth = 0;
    for (; end < rest.size(); ++end) {
      char c = rest[end];
      if (c == ';' && depth == 0)
        break;
      if (c == '{' || c == '[')
        ++depth;
      if ((c == '}' || c == ']') && depth-- == 0)
        break;
    }
    // Collapse the whitespace the headers use for alignment.
    std::string statementText;
    for (StringRef word : llvm::split(rest.substr(0, end), ' ')) {
      for (StringRef piece : llvm::split(word, '\t')) {
        for (StringRef line : llvm::split(piece, '\n')) {
          if (line.trim().empty())
            continue;
          if (!statementText.empty())
            statementText += ' ';
          statementText += line.trim().str();
        }
      }
    }
    statements.push_back(parseStatement(statementText));
    rest = rest.substr(end);
  }
  return statements;
}

/// The statement as the PTX assembler would read it: `$N` is `%N`.
static std::string displayText(StringRef text) {
  std::string result;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '$' && i + 1 < text.size() && text[i + 1] == '$') {
      result += '$';
      ++i;
    } else if (text[i] == '$') {
      result += '%';
    } else {
      result += text[i];
    }
  }
  return result;
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

/// A PTX type modifier: `.b32`, `.s8`, `.f16x2`, `.bf16`, `.pred`, ...
struct PtxType {
  enum Kind { Bits, Unsigned, Signed, Float, Predicate };
  Kind kind = Bits;
  /// Width of one element.
  unsigned bits = 0;
  /// 2 for the packed pairs (`.f16x2`, `.u16x2`).
  unsigned lanes = 1;
  bool brain = false; ///< bfloat16

  unsigned totalBits() const { return bits * lanes; }
  bool isFloat() const { return kind == Float; }
  bool isSigned() const { return kind == Signed; }
  bool isInteger() const {
    return kind == Bits || kind == Unsigned || kind == Signed;
  }

  /// The LLVM type of one element.
  Type *elementType(LLVMContext &context) const {
    if (kind == Predicate)
      return Type::getInt1Ty(context);
    if (kind != Float)
      return IntegerType::get(context, bits);
    if (brain)
      return Type::getBFloatTy(context);
    switch (bits) {
    case 16:
      return Type::getHalfTy(context);
    case 32:
      return Type::getFloatTy(context);
    default:
      return Type::getDoubleTy(context);
    }
  }
};

static std::optional<PtxType> parseType(StringRef name) {
  PtxType type;
  if (name == "pred") {
    type.kind = PtxType::Predicate;
    type.bits = 1;
    return type;
  }
  if (name.consume_back("x2"))
    type.lanes = 2;
  if (name.consume_front("bf")) {
    type.kind = PtxType::Float;
    type.brain = true;
  } else if (name.consume_front("b")) {
    type.kind = PtxType::Bits;
  } else if (name.consume_front("u")) {
    type.kind = PtxType::Unsigned;
  } else if (name.consume_front("s")) {
    type.kind = PtxType::Signed;
  } else if (name.consume_front("f")) {
    type.kind = PtxType::Float;
  } else {
    return std::nullopt;
  }
  if (name.getAsInteger(10, type.bits))
    return std::nullopt;
  bool valid = type.kind == PtxType::Float
                   ? (type.brain ? type.bits == 16
                                 : type.bits == 16 || type.bits == 32 ||
                                       type.bits == 64)
                   : type.bits == 8 || type.bits == 16 || type.bits == 32 ||
                         type.bits == 64;
  if (!valid || (type.lanes == 2 && type.bits != 16))
    return std::nullopt;
  return type;
}

/// The type modifiers of `statement`, in order.
static SmallVector<PtxType, 3> typesOf(const PtxStatement &statement) {
  SmallVector<PtxType, 3> types;
  for (const std::string &modifier : statement.modifiers)
    if (std::optional<PtxType> type = parseType(modifier))
      types.push_back(*type);
  return types;
}

/// Whether `statement` addresses the shared state space (`.shared`,
/// `.shared::cta`) with all its addresses.
static bool inSharedSpace(const PtxStatement &statement) {
  return statement.has("shared") || statement.has("shared::cta");
}

/// The stand-in for the start of the block's shared memory (Attributes.h);
/// raising replaces its calls by the block's shared allocation.
static Function *sharedWindowFunction(Module &module) {
  FunctionCallee callee = module.getOrInsertFunction(
      mlir::respec::kSharedWindowFunction,
      FunctionType::get(PointerType::get(module.getContext(), 0), false));
  auto *function = cast<Function>(callee.getCallee());
  function->setDoesNotAccessMemory();
  function->setWillReturn();
  function->setDoesNotThrow();
  return function;
}

/// Rounding of floating-point results (`.rn`, `.rz`, `.rm`, `.rp`) and of
/// conversions to integral values (`.rni`, `.rzi`, `.rmi`, `.rpi`).
enum class Rounding { Nearest, Zero, Down, Up };

static std::optional<Rounding> roundingOf(const PtxStatement &statement,
                                          bool integral) {
  for (const std::string &modifier : statement.modifiers) {
    StringRef m(modifier);
    if (integral != m.consume_back("i") || m.size() != 2 || m[0] != 'r')
      continue;
    switch (m[1]) {
    case 'n':
      return Rounding::Nearest;
    case 'z':
      return Rounding::Zero;
    case 'm':
      return Rounding::Down;
    case 'p':
      return Rounding::Up;
    }
  }
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Translation
//===----------------------------------------------------------------------===//

/// The value of a register: whatever was last written, of `bits` width.
struct RegisterValue {
  Value *value = nullptr;
  unsigned bits = 0;
};

/// How one asm operand (`$N`) is bound.
struct AsmOperand {
  RegisterValue reg;
  bool output = false;
};

/// Translates the statements of one asm call into the body of `function`.
class PTXTranslator {
public:
  PTXTranslator(Function &function, IRBuilder<> &builder)
      : function(function), b(builder), context(function.getContext()) {}

  /// Binds `$N`.
  void bindOperand(unsigned index, Value *value, unsigned bits, bool output) {
    if (operands.size() <= index)
      operands.resize(index + 1);
    operands[index].reg = {value, bits};
    operands[index].output = output;
  }
  Value *operandValue(unsigned index) { return operands[index].reg.value; }

  /// Emits `statements`; on failure `failure` holds the statement.
  bool translate(ArrayRef<PtxStatement> statements);

  std::string failure;

private:
  /// The condition code's carry flag (CC.CF, an i1) as the last `.cc`
  /// instruction of this asm statement set it; null before the first.
  /// CUDA keeps carry chains within one asm statement: the compiler may
  /// put other instructions between two.
  Value *carryFlag = nullptr;

  using Handler = bool (PTXTranslator::*)(const PtxStatement &);

  bool translateStatement(const PtxStatement &statement);
  bool translateGuarded(const PtxStatement &statement, Handler handler);
  Handler handlerFor(StringRef opcode) const;

  // Registers.
  RegisterValue *lookup(StringRef name);
  Value *readSpecialRegister(StringRef name);
  Value *read(const PtxOperand &operand, Type *type);
  Value *readLanes(const PtxOperand &operand, const PtxType &type,
                   SmallVectorImpl<Value *> &lanes);
  bool write(const PtxOperand &operand, Value *value, bool signExtend = false);
  bool writeRegister(StringRef name, Value *value, bool signExtend = false);

  // Value helpers.
  Value *coerce(Value *value, Type *type, bool signExtend = false);
  Value *toBits(Value *value);
  Value *packLanes(ArrayRef<Value *> lanes);
  Value *mapLanes(const PtxType &type, ArrayRef<const PtxOperand *> sources,
                  function_ref<Value *(ArrayRef<Value *>)> laneFunction);
  Value *address(const PtxOperand &operand, unsigned byteOffset = 0,
                 bool sharedWindow = false);
  Value *sharedWindow();
  std::optional<int64_t> immediate(const PtxOperand &operand);
  Value *intrinsic(Intrinsic::ID id, ArrayRef<Type *> types,
                   ArrayRef<Value *> args);
  Value *callNVVM(Intrinsic::ID id, ArrayRef<Value *> args);

  // Floating point.
  Value *toDouble(Value *value);
  Value *fromDouble(Value *value, Type *type, Rounding rounding,
                    Value *error = nullptr);
  Value *roundToOddFloat(Value *value);
  Value *bfloatNearest(Value *value);
  Value *stepMagnitude(Value *bitsValue, Value *up);
  Value *flushSubnormal(Value *value);
  Value *saturate(Value *value);
  Value *floatArithmetic(StringRef op, ArrayRef<Value *> args, Type *type,
                         Rounding rounding);
  Value *floatMinMax(Value *a, Value *b, bool max, bool propagateNaN);
  Value *finishFloat(const PtxStatement &statement, Value *value);
  Value *roundIntegral(Value *value, Rounding rounding);
  Value *isNaN(Value *value);

  // Integer helpers.
  Value *extend(Value *value, unsigned bits, bool isSigned);
  Value *clampToRange(Value *value, unsigned bits, bool isSigned);
  Value *compare(StringRef op, Value *a, Value *b, const PtxType &type);
  Value *shiftAmount(Value *amount, unsigned limit);

  // Instruction families.
  bool translateMov(const PtxStatement &statement);
  bool translateCvt(const PtxStatement &statement);
  bool translateFloatArithmetic(const PtxStatement &statement);
  bool translateIntegerArithmetic(const PtxStatement &statement);
  bool translateArithmetic(const PtxStatement &statement);
  bool translateUnary(const PtxStatement &statement);
  bool translateMinMax(const PtxStatement &statement);
  bool translateDivRem(const PtxStatement &statement);
  bool translateApproximation(const PtxStatement &statement);
  bool translateSetp(const PtxStatement &statement);
  bool translateSet(const PtxStatement &statement);
  bool translateSelp(const PtxStatement &statement);
  bool translateLogic(const PtxStatement &statement);
  bool translateShift(const PtxStatement &statement);
  bool translateFunnelShift(const PtxStatement &statement);
  bool translateBitField(const PtxStatement &statement);
  bool translateBitCount(const PtxStatement &statement);
  bool translatePermute(const PtxStatement &statement);
  bool translateLop3(const PtxStatement &statement);
  bool translateDotProduct(const PtxStatement &statement);
  bool translateSad(const PtxStatement &statement);
  bool translateVideo(const PtxStatement &statement);
  bool translateLoad(const PtxStatement &statement);
  bool translateStore(const PtxStatement &statement);
  bool translateAtomicVectorLoad(const PtxStatement &statement,
                                 const PtxType &type, Type *element,
                                 unsigned count, AtomicOrdering ordering);
  bool translateAtomicVectorStore(const PtxStatement &statement,
                                  const PtxType &type, Type *element,
                                  unsigned count, AtomicOrdering ordering);
  bool translateAtomic(const PtxStatement &statement);
  bool translateFence(const PtxStatement &statement);
  bool translateBarrier(const PtxStatement &statement);
  bool translateShuffle(const PtxStatement &statement);
  bool translateVote(const PtxStatement &statement);
  bool translateMatch(const PtxStatement &statement);
  bool translateRedux(const PtxStatement &statement);
  bool translateActiveMask(const PtxStatement &statement);
  bool translateNoOp(const PtxStatement &statement);
  bool translateBitMask(const PtxStatement &statement);
  bool translateExit(const PtxStatement &statement);
  bool translateCvta(const PtxStatement &statement);
  bool translateCvtToTF32(const PtxStatement &statement);
  bool translateSlct(const PtxStatement &statement);
  bool translateCopySign(const PtxStatement &statement);
  bool translateTestp(const PtxStatement &statement);
  bool translateMul24(const PtxStatement &statement);
  bool translateCarry(const PtxStatement &statement);
  bool translateTrap(const PtxStatement &statement);
  bool translateGridDependency(const PtxStatement &statement);
  Value *callCounter(StringRef name, Type *type);
  bool translateAsyncCopy(const PtxStatement &statement);
  bool translateTexture(const PtxStatement &statement);
  bool translateSurfaceLoad(const PtxStatement &statement);
  bool translateSurfaceStore(const PtxStatement &statement);

  struct TexelAddress {
    Value *handle;
    Value *coordinates[3];
    Value *layer;
  };
  /// The operands of suld.b/sust.b: 1, 2 or 4 elements of N bits (at most
  /// 128 in all) and where they go in the surface.
  struct SurfaceAccess {
    SmallVector<const PtxOperand *, 4> elements;
    unsigned bits;
    TexelAddress address;

    unsigned bytes() const { return elements.size() * bits / 8; }
  };
  bool readTexelAddress(const PtxStatement &statement,
                        const PtxOperand &operand, Type *coordinateType,
                        TexelAddress &address);
  static int surfaceModeOf(const PtxStatement &statement);
  bool readSurfaceAccess(const PtxStatement &statement, const PtxOperand &data,
                         const PtxOperand &place, SurfaceAccess &access);
  Value *gridWorkspaceHalf(bool high);
  void pollAfterAcquire();
  Value *textureHeader(Value *handle);
  Value *textureField(Value *header, Type *type, size_t offset);
  void sampleSingleFloat(unsigned dims, bool layered,
                         const TexelAddress &address,
                         function_ref<Value *()> sampleThroughRuntime,
                         SmallVectorImpl<Value *> &lanes);
  void fetchLinearWords(Value *handle, Value *x,
                        function_ref<Value *()> fetchThroughRuntime,
                        SmallVectorImpl<Value *> &lanes);
  FunctionCallee runtimeFunction(StringRef name, Type *result,
                                 ArrayRef<Type *> parameters, bool readOnly);

  Value *atomicUpdateLoop(Value *pointer, Type *type, AtomicOrdering ordering,
                          function_ref<Value *(Value *)> update);

  Function &function;
  IRBuilder<> &b;
  LLVMContext &context;
  SmallVector<AsmOperand> operands;
  SmallVector<StringMap<RegisterValue>, 4> scopes;
};

//===- Statements ---------------------------------------------------------===//

bool PTXTranslator::translate(ArrayRef<PtxStatement> statements) {
  scopes.emplace_back();
  for (const PtxStatement &statement : statements) {
    if (!translateStatement(statement)) {
      failure = displayText(statement.text);
      return false;
    }
  }
  return true;
}

bool PTXTranslator::translateStatement(const PtxStatement &statement) {
  switch (statement.kind) {
  case PtxStatement::OpenScope:
    scopes.emplace_back();
    return true;
  case PtxStatement::CloseScope:
    if (scopes.size() < 2)
      return false;
    scopes.pop_back();
    return true;
  case PtxStatement::Declaration: {
    if (statement.malformed)
      return false;
    std::optional<PtxType> type = parseType(statement.declaredType);
    if (!type)
      return false;
    for (const std::string &name : statement.declaredNames)
      scopes.back()[name] = {nullptr, type->totalBits()};
    return true;
  }
  case PtxStatement::Instruction:
    break;
  }
  if (statement.malformed)
    return false;
  Handler handler = handlerFor(statement.opcode);
  if (!handler)
    return false;
  if (statement.guard.empty())
    return (this->*handler)(statement);
  return translateGuarded(statement, handler);
}

/// `@p instr`: the instruction runs in a block of its own; registers it
/// writes merge with their previous values after it.
bool PTXTranslator::translateGuarded(const PtxStatement &statement,
                                     Handler handler) {
  PtxOperand guardOperand;
  guardOperand.name = statement.guard;
  guardOperand.negated = statement.guardNegated;
  Value *guard = read(guardOperand, b.getInt1Ty());
  if (!guard)
    return false;
  auto savedScopes = scopes;
  auto savedOperands = operands;
  BasicBlock *before = b.GetInsertBlock();
  BasicBlock *then = BasicBlock::Create(context, "ptx.guarded", &function);
  BasicBlock *after = BasicBlock::Create(context, "ptx.join", &function);
  b.CreateCondBr(guard, then, after);
  b.SetInsertPoint(then);
  if (!(this->*handler)(statement))
    return false;
  BasicBlock *thenEnd = b.GetInsertBlock();
  b.CreateBr(after);
  // Registers the instruction wrote: their old values, in the new values'
  // types, are computed before the branch.
  SmallVector<std::pair<RegisterValue *, Value *>, 4> merges;
  b.SetInsertPoint(before->getTerminator());
  auto collect = [&](RegisterValue &now, const RegisterValue &old) {
    if (now.value == old.value)
      return;
    Type *type = now.value->getType();
    merges.push_back({&now, old.value ? coerce(old.value, type)
                                      : PoisonValue::get(type)});
  };
  for (auto [now, old] : llvm::zip(scopes, savedScopes))
    for (auto &entry : now)
      collect(entry.second, old.lookup(entry.first()));
  for (auto [now, old] : llvm::zip(operands, savedOperands))
    collect(now.reg, old.reg);
  b.SetInsertPoint(after);
  for (auto [now, previous] : merges) {
    PHINode *phi = b.CreatePHI(now->value->getType(), 2);
    phi->addIncoming(previous, before);
    phi->addIncoming(now->value, thenEnd);
    now->value = phi;
  }
  return true;
}

PTXTranslator::Handler PTXTranslator::handlerFor(StringRef opcode) const {
  return StringSwitch<Handler>(opcode)
      .Case("mov", &PTXTranslator::translateMov)
      .Case("cvt", &PTXTranslator::translateCvt)
      .Cases({"add", "sub", "mul", "mad", "fma"},
             &PTXTranslator::translateArithmetic)
      .Cases({"neg", "abs"}, &PTXTranslator::translateUnary)
      .Cases({"min", "max"}, &PTXTranslator::translateMinMax)
      .Cases({"div", "rem"}, &PTXTranslator::translateDivRem)
      .Cases({"sqrt", "rsqrt", "rcp", "ex2", "lg2", "sin", "cos", "tanh"},
             &PTXTranslator::translateApproximation)
      .Case("setp", &PTXTranslator::translateSetp)
      .Case("set", &PTXTranslator::translateSet)
      .Case("selp", &PTXTranslator::translateSelp)
      .Case("slct", &PTXTranslator::translateSlct)
      .Case("copysign", &PTXTranslator::translateCopySign)
      .Case("testp", &PTXTranslator::translateTestp)
      .Cases({"mul24", "mad24"}, &PTXTranslator::translateMul24)
      .Cases({"addc", "subc", "madc"}, &PTXTranslator::translateCarry)
      .Case("trap", &PTXTranslator::translateTrap)
      .Case("griddepcontrol", &PTXTranslator::translateGridDependency)
      .Cases({"and", "or", "xor", "not", "cnot"},
             &PTXTranslator::translateLogic)
      .Cases({"shl", "shr"}, &PTXTranslator::translateShift)
      .Case("shf", &PTXTranslator::translateFunnelShift)
      .Cases({"bfe", "bfi"}, &PTXTranslator::translateBitField)
      .Cases({"brev", "popc", "clz", "bfind"},
             &PTXTranslator::translateBitCount)
      .Case("prmt", &PTXTranslator::translatePermute)
      .Case("lop3", &PTXTranslator::translateLop3)
      .Cases({"dp4a", "dp2a"}, &PTXTranslator::translateDotProduct)
      .Case("sad", &PTXTranslator::translateSad)
      .Cases({"vadd2", "vadd4", "vsub2", "vsub4", "vabsdiff2", "vabsdiff4",
              "vmin2", "vmin4", "vmax2", "vmax4", "vavrg2", "vavrg4"},
             &PTXTranslator::translateVideo)
      .Cases({"vset2", "vset4"}, &PTXTranslator::translateVideo)
      .Cases({"ld", "ldu"}, &PTXTranslator::translateLoad)
      .Case("st", &PTXTranslator::translateStore)
      .Cases({"atom", "red"}, &PTXTranslator::translateAtomic)
      .Cases({"fence", "membar"}, &PTXTranslator::translateFence)
      .Cases({"bar", "barrier"}, &PTXTranslator::translateBarrier)
      .Case("shfl", &PTXTranslator::translateShuffle)
      .Case("vote", &PTXTranslator::translateVote)
      .Case("match", &PTXTranslator::translateMatch)
      .Case("redux", &PTXTranslator::translateRedux)
      .Case("activemask", &PTXTranslator::translateActiveMask)
      .Cases({"nanosleep", "prefetch", "prefetchu"},
             &PTXTranslator::translateNoOp)
      .Case("bmsk", &PTXTranslator::translateBitMask)
      .Case("exit", &PTXTranslator::translateExit)
      .Case("cvta", &PTXTranslator::translateCvta)
      .Case("cp", &PTXTranslator::translateAsyncCopy)
      .Case("tex", &PTXTranslator::translateTexture)
      .Case("suld", &PTXTranslator::translateSurfaceLoad)
      .Case("sust", &PTXTranslator::translateSurfaceStore)
      .Default(nullptr);
}

//===- Registers ----------------------------------------------------------===//

RegisterValue *PTXTranslator::lookup(StringRef name) {
  if (name.starts_with("$") && name.size() > 1 && isDigit(name[1])) {
    unsigned index;
    if (name.drop_front().getAsInteger(10, index) || index >= operands.size())
      return nullptr;
    return &operands[index].reg;
  }
  for (auto &scope : llvm::reverse(scopes)) {
    auto it = scope.find(name);
    if (it != scope.end())
      return &it->second;
  }
  return nullptr;
}

/// `%laneid`, `%tid.x`, `%lanemask_lt`, ... as the NVVM intrinsics that
/// clang emits for them, which respec raises to launch positions.
Value *PTXTranslator::readSpecialRegister(StringRef name) {
  Intrinsic::ID id =
      StringSwitch<Intrinsic::ID>(name)
          .Case("%laneid", Intrinsic::nvvm_read_ptx_sreg_laneid)
          .Case("%warpid", Intrinsic::nvvm_read_ptx_sreg_warpid)
          .Case("%tid.x", Intrinsic::nvvm_read_ptx_sreg_tid_x)
          .Case("%tid.y", Intrinsic::nvvm_read_ptx_sreg_tid_y)
          .Case("%tid.z", Intrinsic::nvvm_read_ptx_sreg_tid_z)
          .Case("%ntid.x", Intrinsic::nvvm_read_ptx_sreg_ntid_x)
          .Case("%ntid.y", Intrinsic::nvvm_read_ptx_sreg_ntid_y)
          .Case("%ntid.z", Intrinsic::nvvm_read_ptx_sreg_ntid_z)
          .Case("%ctaid.x", Intrinsic::nvvm_read_ptx_sreg_ctaid_x)
          .Case("%ctaid.y", Intrinsic::nvvm_read_ptx_sreg_ctaid_y)
          .Case("%ctaid.z", Intrinsic::nvvm_read_ptx_sreg_ctaid_z)
          .Case("%nctaid.x", Intrinsic::nvvm_read_ptx_sreg_nctaid_x)
          .Case("%nctaid.y", Intrinsic::nvvm_read_ptx_sreg_nctaid_y)
          .Case("%nctaid.z", Intrinsic::nvvm_read_ptx_sreg_nctaid_z)
          .Case("%clock", Intrinsic::nvvm_read_ptx_sreg_clock)
          .Case("%clock64", Intrinsic::nvvm_read_ptx_sreg_clock64)
          .Case("%globaltimer", Intrinsic::nvvm_read_ptx_sreg_globaltimer)
          .Default(Intrinsic::not_intrinsic);
  if (id != Intrinsic::not_intrinsic)
    return callNVVM(id, {});
  if (name == "WARP_SZ")
    return b.getInt32(32);
  // The "SM" of a block is the core running it; the runtime answers both
  // (they vary between blocks, so the calls are never hoisted out of one).
  if (name == "%smid")
    return callCounter("__respec_smid", b.getInt32Ty());
  if (name == "%nsmid")
    return callCounter("__respec_nsmid", b.getInt32Ty());
  if (name == "%globaltimer_lo" || name == "%globaltimer_hi") {
    Value *ns = callNVVM(Intrinsic::nvvm_read_ptx_sreg_globaltimer, {});
    if (name == "%globaltimer_hi")
      ns = b.CreateLShr(ns, 32);
    return b.CreateTrunc(ns, b.getInt32Ty());
  }
  if (name == "%envreg1" || name == "%envreg2")
    return gridWorkspaceHalf(/*high=*/name == "%envreg1");
  // The lane masks follow from the lane id (PTX ISA: %lanemask_lt has the
  // bits of the lanes below this one set, and so on).
  StringRef kind = name;
  if (!kind.consume_front("%lanemask_"))
    return nullptr;
  Value *lane = callNVVM(Intrinsic::nvvm_read_ptx_sreg_laneid, {});
  Value *eq = b.CreateShl(b.getInt32(1), lane);
  Value *lt = b.CreateSub(eq, b.getInt32(1));
  Value *le = b.CreateOr(eq, lt);
  return StringSwitch<Value *>(kind)
      .Case("eq", eq)
      .Case("lt", lt)
      .Case("le", le)
      .Case("gt", b.CreateNot(le))
      .Case("ge", b.CreateNot(lt))
      .Default(nullptr);
}

Value *PTXTranslator::read(const PtxOperand &operand, Type *type) {
  switch (operand.kind) {
  case PtxOperand::Register: {
    if (!operand.pairName.empty())
      return nullptr;
    Value *value;
    if (RegisterValue *reg = lookup(operand.name))
      value = reg->value ? reg->value : PoisonValue::get(type);
    else
      value = readSpecialRegister(operand.name);
    if (!value)
      return nullptr;
    value = coerce(value, type);
    if (operand.negated)
      value = type->isIntegerTy(1) ? b.CreateNot(value) : nullptr;
    return value;
  }
  case PtxOperand::Integer:
    if (type->isIntegerTy())
      return ConstantInt::get(type, operand.integer, /*IsSigned=*/true);
    if (type->isFloatingPointTy())
      return ConstantFP::get(type, static_cast<double>(operand.integer));
    if (type->isPointerTy())
      return nullptr;
    return coerce(b.getInt64(operand.integer), type);
  case PtxOperand::Float: {
    Value *bitsValue = b.getIntN(operand.floatWidth, operand.floatBits);
    Type *source = operand.floatWidth == 32 ? b.getFloatTy() : b.getDoubleTy();
    Value *value = b.CreateBitCast(bitsValue, source);
    if (type->isFloatingPointTy())
      return type == source ? value : b.CreateFPCast(value, type);
    return coerce(bitsValue, type);
  }
  case PtxOperand::Vector: {
    // `{a, b}` read as one value packs its elements, the first lowest.
    unsigned total = type->getPrimitiveSizeInBits();
    unsigned count = operand.elements.size();
    if (!total || total % count)
      return nullptr;
    SmallVector<Value *, 4> elements;
    for (const PtxOperand &element : operand.elements) {
      Value *value = read(element, b.getIntNTy(total / count));
      if (!value)
        return nullptr;
      elements.push_back(value);
    }
    return coerce(packLanes(elements), type);
  }
  case PtxOperand::Address:
  case PtxOperand::Sink:
  case PtxOperand::Tuple:
    return nullptr;
  }
  return nullptr;
}

/// Reads `operand` as `type` and splits it into its lanes (element type);
/// returns the packed value.
Value *PTXTranslator::readLanes(const PtxOperand &operand, const PtxType &type,
                                SmallVectorImpl<Value *> &lanes) {
  Type *element = type.elementType(context);
  if (type.lanes == 1) {
    Value *value = read(operand, element);
    if (value)
      lanes.push_back(value);
    return value;
  }
  Value *packed = read(operand, b.getIntNTy(type.totalBits()));
  if (!packed)
    return nullptr;
  for (unsigned i = 0; i < type.lanes; ++i) {
    Value *lane = b.CreateTrunc(b.CreateLShr(packed, i * type.bits),
                                b.getIntNTy(type.bits));
    lanes.push_back(b.CreateBitCast(lane, element));
  }
  return packed;
}

bool PTXTranslator::writeRegister(StringRef name, Value *value,
                                  bool signExtend) {
  RegisterValue *reg = lookup(name);
  if (!reg || !value)
    return false;
  unsigned bits = value->getType()->isPointerTy()
                      ? 64
                      : value->getType()->getPrimitiveSizeInBits();
  // A narrower value (ld.u8 into a .b32 register) is extended as the
  // instruction's type says; a wider one is truncated.
  reg->value = bits == reg->bits
                   ? value
                   : coerce(value, b.getIntNTy(reg->bits), signExtend);
  return true;
}

bool PTXTranslator::write(const PtxOperand &operand, Value *value,
                          bool signExtend) {
  if (!value)
    return false;
  switch (operand.kind) {
  case PtxOperand::Register:
    return !operand.negated && operand.pairName.empty() &&
           writeRegister(operand.name, value, signExtend);
  case PtxOperand::Sink:
    return true;
  case PtxOperand::Vector: {
    // `{lo, hi}` written with one value unpacks it, the first lowest.
    Value *bitsValue = toBits(value);
    unsigned total = bitsValue->getType()->getIntegerBitWidth();
    unsigned count = operand.elements.size();
    if (total % count)
      return false;
    unsigned width = total / count;
    for (auto [i, element] : llvm::enumerate(operand.elements)) {
      Value *part = b.CreateTrunc(b.CreateLShr(bitsValue, i * width),
                                  b.getIntNTy(width));
      if (!write(element, part))
        return false;
    }
    return true;
  }
  default:
    return false;
  }
}

//===- Value helpers ------------------------------------------------------===//

/// `value` as an integer of its width (pointers as i64, predicates as i1).
Value *PTXTranslator::toBits(Value *value) {
  Type *type = value->getType();
  if (type->isIntegerTy())
    return value;
  if (type->isPointerTy())
    return b.CreatePtrToInt(value, b.getInt64Ty());
  return b.CreateBitCast(value, b.getIntNTy(type->getPrimitiveSizeInBits()));
}

/// Reinterprets `value` as `type`, as PTX's relaxed register typing does:
/// same bits, truncated or extended when the widths differ.
Value *PTXTranslator::coerce(Value *value, Type *type, bool signExtend) {
  Type *from = value->getType();
  if (from == type)
    return value;
  if (type->isPointerTy()) {
    if (from->isPointerTy())
      return b.CreateAddrSpaceCast(value, type);
    return b.CreateIntToPtr(b.CreateZExtOrTrunc(toBits(value), b.getInt64Ty()),
                            type);
  }
  Value *bitsValue = toBits(value);
  if (type->isIntegerTy(1) && !bitsValue->getType()->isIntegerTy(1))
    return b.CreateICmpNE(bitsValue,
                          ConstantInt::get(bitsValue->getType(), 0));
  unsigned width = type->getPrimitiveSizeInBits();
  Value *resized = signExtend ? b.CreateSExtOrTrunc(bitsValue, b.getIntNTy(width))
                              : b.CreateZExtOrTrunc(bitsValue, b.getIntNTy(width));
  return b.CreateBitCast(resized, type);
}

/// Packs `lanes` (lowest first) into one integer.
Value *PTXTranslator::packLanes(ArrayRef<Value *> lanes) {
  unsigned width = 0;
  for (Value *lane : lanes)
    width += toBits(lane)->getType()->getIntegerBitWidth();
  Type *packedType = b.getIntNTy(width);
  Value *packed = ConstantInt::get(packedType, 0);
  unsigned offset = 0;
  for (Value *lane : lanes) {
    Value *bitsValue = toBits(lane);
    unsigned laneWidth = bitsValue->getType()->getIntegerBitWidth();
    packed = b.CreateOr(
        packed, b.CreateShl(b.CreateZExt(bitsValue, packedType), offset));
    offset += laneWidth;
  }
  return packed;
}

/// Applies `laneFunction` to the lanes of `sources` (read as `type`) and
/// packs the lane results.
Value *PTXTranslator::mapLanes(
    const PtxType &type, ArrayRef<const PtxOperand *> sources,
    function_ref<Value *(ArrayRef<Value *>)> laneFunction) {
  SmallVector<SmallVector<Value *, 2>, 3> lanes(sources.size());
  for (auto [source, sourceLanes] : llvm::zip(sources, lanes))
    if (!readLanes(*source, type, sourceLanes))
      return nullptr;
  SmallVector<Value *, 2> results;
  for (unsigned i = 0; i < type.lanes; ++i) {
    SmallVector<Value *, 3> args;
    for (auto &sourceLanes : lanes)
      args.push_back(sourceLanes[i]);
    Value *result = laneFunction(args);
    if (!result)
      return nullptr;
    results.push_back(result);
  }
  return type.lanes == 1 ? results.front() : packLanes(results);
}

/// The pointer `[base+offset]` designates. In the shared state space
/// (`sharedWindow`) the base is an offset into the block's shared memory
/// (sharedWindowAddress), of 32 or 64 bits; elsewhere a 64-bit address.
Value *PTXTranslator::address(const PtxOperand &operand, unsigned byteOffset,
                              bool sharedWindow) {
  if (operand.kind != PtxOperand::Address)
    return nullptr;
  RegisterValue *reg = lookup(operand.name);
  // Symbols would need the module's globals by PTX name; 32-bit addresses
  // outside shared memory (local, const windows) are not modelled.
  if (!reg || !reg->value || (reg->bits != 64 && !sharedWindow) ||
      (reg->bits != 32 && reg->bits != 64))
    return nullptr;
  Value *pointer =
      sharedWindow
          ? b.CreateGEP(b.getInt8Ty(), this->sharedWindow(),
                        b.CreateZExt(coerce(reg->value, b.getIntNTy(reg->bits)),
                                     b.getInt64Ty()))
          : coerce(reg->value, b.getPtrTy());
  int64_t offset = operand.integer + byteOffset;
  if (offset)
    pointer = b.CreateGEP(b.getInt8Ty(), pointer, b.getInt64(offset));
  return pointer;
}

Value *PTXTranslator::intrinsic(Intrinsic::ID id, ArrayRef<Type *> types,
                                ArrayRef<Value *> args) {
  return b.CreateIntrinsic(id, types, args);
}

Value *PTXTranslator::callNVVM(Intrinsic::ID id, ArrayRef<Value *> args) {
  return b.CreateIntrinsic(id, {}, args);
}

//===- Floating point -----------------------------------------------------===//

Value *PTXTranslator::isNaN(Value *value) {
  return b.CreateFCmpUNO(value, value);
}

/// Exact widening to double. bfloat16 is the upper half of a float.
Value *PTXTranslator::toDouble(Value *value) {
  Type *type = value->getType();
  if (type->isBFloatTy()) {
    Value *bitsValue = b.CreateZExt(b.CreateBitCast(value, b.getInt16Ty()),
                                    b.getInt32Ty());
    value = b.CreateBitCast(b.CreateShl(bitsValue, 16), b.getFloatTy());
  }
  if (value->getType()->isDoubleTy())
    return value;
  return b.CreateFPExt(value, b.getDoubleTy());
}

/// Moves the float whose bits are `bitsValue` one unit in the last place
/// away from zero if `up`, towards zero otherwise.
Value *PTXTranslator::stepMagnitude(Value *bitsValue, Value *up) {
  Type *type = bitsValue->getType();
  return b.CreateSelect(up, b.CreateAdd(bitsValue, ConstantInt::get(type, 1)),
                        b.CreateSub(bitsValue, ConstantInt::get(type, 1)));
}

/// Rounds a double to float with the sticky "round to odd" rule: an inexact
/// result gets an odd last bit. Rounding that again to any narrower format
/// (at least two bits shorter) gives the correctly rounded result.
Value *PTXTranslator::roundToOddFloat(Value *value) {
  Value *nearest = b.CreateFPTrunc(value, b.getFloatTy());
  Value *back = b.CreateFPExt(nearest, b.getDoubleTy());
  Value *bitsValue = b.CreateBitCast(nearest, b.getInt32Ty());
  Value *inexact = b.CreateFCmpONE(back, value);
  Value *even = b.CreateICmpEQ(b.CreateAnd(bitsValue, 1), b.getInt32(0));
  Value *up = b.CreateFCmpOLT(intrinsic(Intrinsic::fabs, back->getType(), back),
                              intrinsic(Intrinsic::fabs, value->getType(), value));
  Value *odd = stepMagnitude(bitsValue, up);
  return b.CreateBitCast(b.CreateSelect(b.CreateAnd(inexact, even), odd,
                                        bitsValue),
                         b.getFloatTy());
}

/// float to bfloat16, round to nearest even, subnormals kept (PTX
/// cvt.rn.bf16.f32). The CPU's own conversion may flush or be missing.
Value *PTXTranslator::bfloatNearest(Value *value) {
  Value *bitsValue = b.CreateBitCast(value, b.getInt32Ty());
  Value *lsb = b.CreateAnd(b.CreateLShr(bitsValue, 16), 1);
  Value *rounded = b.CreateLShr(
      b.CreateAdd(bitsValue, b.CreateAdd(lsb, b.getInt32(0x7fff))), 16);
  Value *quiet = b.CreateOr(b.CreateLShr(bitsValue, 16), 0x40);
  Value *result = b.CreateSelect(isNaN(value), quiet, rounded);
  return b.CreateBitCast(b.CreateTrunc(result, b.getInt16Ty()),
                         b.getBFloatTy());
}

/// Rounds the double `value` (plus the exact `error` term of a two-sum, if
/// any) to `type` with `rounding`. Correct for every mode: the value is
/// first rounded to odd, then to nearest, then nudged by one unit where the
/// nearest result lies on the wrong side for a directed mode.
Value *PTXTranslator::fromDouble(Value *value, Type *type, Rounding rounding,
                                 Value *error) {
  if (error) {
    // Sticky bit of the two-sum: a nonzero error makes `value` odd.
    Value *bitsValue = b.CreateBitCast(value, b.getInt64Ty());
    Value *inexact = b.CreateFCmpONE(error, ConstantFP::get(b.getDoubleTy(), 0));
    Value *even = b.CreateICmpEQ(b.CreateAnd(bitsValue, 1), b.getInt64(0));
    Value *zero = ConstantFP::get(b.getDoubleTy(), 0);
    Value *up = b.CreateICmpEQ(b.CreateFCmpOGT(error, zero),
                               b.CreateFCmpOGT(value, zero));
    value = b.CreateBitCast(
        b.CreateSelect(b.CreateAnd(inexact, even),
                       stepMagnitude(bitsValue, up), bitsValue),
        b.getDoubleTy());
  }
  if (type->isDoubleTy())
    return value;
  Value *nearest;
  if (type->isFloatTy())
    nearest = b.CreateFPTrunc(value, type);
  else if (type->isHalfTy())
    nearest = b.CreateFPTrunc(roundToOddFloat(value), type);
  else
    nearest = bfloatNearest(roundToOddFloat(value));
  if (rounding == Rounding::Nearest)
    return nearest;
  Value *back = toDouble(nearest);
  Value *bitsValue = toBits(nearest);
  Value *zero = ConstantFP::get(b.getDoubleTy(), 0);
  Value *wrongSide;
  Value *up;
  switch (rounding) {
  case Rounding::Zero:
    wrongSide = b.CreateFCmpOGT(intrinsic(Intrinsic::fabs, back->getType(), back),
                                intrinsic(Intrinsic::fabs, value->getType(), value));
    up = b.getFalse();
    break;
  case Rounding::Down:
    wrongSide = b.CreateFCmpOGT(back, value);
    up = b.CreateFCmpOLT(value, zero);
    break;
  default:
    wrongSide = b.CreateFCmpOLT(back, value);
    up = b.CreateFCmpOGT(value, zero);
    break;
  }
  Value *fixed = b.CreateSelect(wrongSide, stepMagnitude(bitsValue, up),
                                bitsValue);
  return b.CreateBitCast(fixed, type);
}

/// `.ftz`: subnormal values become zero of the same sign.
Value *PTXTranslator::flushSubnormal(Value *value) {
  Type *type = value->getType();
  const fltSemantics &semantics = type->getFltSemantics();
  Value *smallest =
      ConstantFP::get(type, APFloat::getSmallestNormalized(semantics));
  Value *tiny = b.CreateFCmpOLT(intrinsic(Intrinsic::fabs, type, value), smallest);
  Value *zero = intrinsic(Intrinsic::copysign, type,
                          {ConstantFP::get(type, 0.0), value});
  return b.CreateSelect(tiny, zero, value);
}

/// `.sat`: clamps to [0, 1]; NaN becomes +0.
Value *PTXTranslator::saturate(Value *value) {
  Type *type = value->getType();
  Value *zero = ConstantFP::get(type, 0.0);
  Value *one = ConstantFP::get(type, 1.0);
  Value *low = b.CreateSelect(b.CreateFCmpOGT(value, zero), value, zero);
  return b.CreateSelect(b.CreateFCmpOGT(low, one), one, low);
}

/// The `.ftz`, `.sat` and `.relu` treatment of a floating-point result.
Value *PTXTranslator::finishFloat(const PtxStatement &statement,
                                  Value *value) {
  if (statement.has("ftz"))
    value = flushSubnormal(value);
  if (statement.has("sat"))
    value = saturate(value);
  if (statement.has("relu")) {
    // Negative results become +0; NaN stays (PTX: canonical NaN).
    Value *zero = ConstantFP::get(value->getType(), 0.0);
    value = b.CreateSelect(b.CreateFCmpOLT(value, zero), zero, value);
  }
  return value;
}

/// add/sub/mul/fma of one lane, rounded once to `type`. Single-precision
/// and double-precision results in round-to-nearest are native operations;
/// the others are computed exactly in double (products of at most 24-bit
/// significands are exact, sums carry their error from a two-sum) and then
/// rounded.
Value *PTXTranslator::floatArithmetic(StringRef op, ArrayRef<Value *> args,
                                      Type *type, Rounding rounding) {
  bool native = type->isDoubleTy() ||
                (type->isFloatTy() && rounding == Rounding::Nearest);
  if (native) {
    if (rounding != Rounding::Nearest)
      return nullptr;
    if (op == "add")
      return b.CreateFAdd(args[0], args[1]);
    if (op == "sub")
      return b.CreateFSub(args[0], args[1]);
    if (op == "mul")
      return b.CreateFMul(args[0], args[1]);
    return intrinsic(Intrinsic::fma, type, {args[0], args[1], args[2]});
  }
  SmallVector<Value *, 3> wide;
  for (Value *arg : args)
    wide.push_back(toDouble(arg));
  if (op == "mul")
    return fromDouble(b.CreateFMul(wide[0], wide[1]), type, rounding);
  Value *x, *y;
  if (op == "add" || op == "sub") {
    x = wide[0];
    y = op == "sub" ? b.CreateFNeg(wide[1]) : wide[1];
  } else {
    x = b.CreateFMul(wide[0], wide[1]);
    y = wide[2];
  }
  // Knuth's two-sum: sum + error == x + y exactly.
  Value *sum = b.CreateFAdd(x, y);
  Value *yPart = b.CreateFSub(sum, x);
  Value *xPart = b.CreateFSub(sum, yPart);
  Value *error = b.CreateFAdd(b.CreateFSub(x, xPart), b.CreateFSub(y, yPart));
  return fromDouble(sum, type, rounding, error);
}

/// PTX min/max: a NaN operand yields the other one (unless `.NaN`), and
/// -0 orders below +0.
Value *PTXTranslator::floatMinMax(Value *a, Value *bValue, bool max,
                                  bool propagateNaN) {
  Value *aBits = toBits(a);
  Value *bBits = toBits(bValue);
  // Equal operands differ at most in the sign of zero.
  Value *equal = b.CreateBitCast(
      max ? b.CreateAnd(aBits, bBits) : b.CreateOr(aBits, bBits),
      a->getType());
  Value *first = max ? b.CreateFCmpOGT(a, bValue) : b.CreateFCmpOLT(a, bValue);
  Value *second = max ? b.CreateFCmpOGT(bValue, a) : b.CreateFCmpOLT(bValue, a);
  Value *result = b.CreateSelect(first, a, b.CreateSelect(second, bValue, equal));
  if (propagateNaN) {
    Value *nan = ConstantFP::getNaN(a->getType());
    return b.CreateSelect(b.CreateFCmpUNO(a, bValue), nan, result);
  }
  return b.CreateSelect(isNaN(a), bValue, b.CreateSelect(isNaN(bValue), a, result));
}

/// Rounds to an integral value of the same type (cvt.rni and friends).
Value *PTXTranslator::roundIntegral(Value *value, Rounding rounding) {
  Type *type = value->getType();
  bool narrow = type->isHalfTy() || type->isBFloatTy();
  Value *wide = narrow ? toDouble(value) : value;
  Intrinsic::ID id = rounding == Rounding::Nearest ? Intrinsic::roundeven
                     : rounding == Rounding::Zero  ? Intrinsic::trunc
                     : rounding == Rounding::Down  ? Intrinsic::floor
                                                   : Intrinsic::ceil;
  Value *rounded = intrinsic(id, wide->getType(), wide);
  return narrow ? fromDouble(rounded, type, Rounding::Nearest) : rounded;
}

//===- Integer helpers ----------------------------------------------------===//

Value *PTXTranslator::extend(Value *value, unsigned bits, bool isSigned) {
  return isSigned ? b.CreateSExtOrTrunc(value, b.getIntNTy(bits))
                  : b.CreateZExtOrTrunc(value, b.getIntNTy(bits));
}

/// Clamps the (wider) `value` to the range of a `bits`-wide integer.
Value *PTXTranslator::clampToRange(Value *value, unsigned bits,
                                   bool isSigned) {
  Type *type = value->getType();
  unsigned width = type->getIntegerBitWidth();
  APInt low = isSigned ? APInt::getSignedMinValue(bits).sext(width)
                       : APInt::getZero(width);
  APInt high = isSigned ? APInt::getSignedMaxValue(bits).sext(width)
                        : APInt::getMaxValue(bits).zext(width);
  Value *lowValue = ConstantInt::get(type, low);
  Value *highValue = ConstantInt::get(type, high);
  Value *clamped = b.CreateSelect(b.CreateICmpSLT(value, lowValue), lowValue,
                                  value);
  return b.CreateSelect(b.CreateICmpSGT(clamped, highValue), highValue,
                        clamped);
}

/// The comparison `op` (eq, lt, ltu, hs, num, ...) of two values of `type`.
Value *PTXTranslator::compare(StringRef op, Value *a, Value *bValue,
                              const PtxType &type) {
  if (type.isFloat()) {
    std::optional<CmpInst::Predicate> predicate =
        StringSwitch<std::optional<CmpInst::Predicate>>(op)
            .Case("eq", CmpInst::FCMP_OEQ)
            .Case("ne", CmpInst::FCMP_ONE)
            .Case("lt", CmpInst::FCMP_OLT)
            .Case("le", CmpInst::FCMP_OLE)
            .Case("gt", CmpInst::FCMP_OGT)
            .Case("ge", CmpInst::FCMP_OGE)
            .Case("equ", CmpInst::FCMP_UEQ)
            .Case("neu", CmpInst::FCMP_UNE)
            .Case("ltu", CmpInst::FCMP_ULT)
            .Case("leu", CmpInst::FCMP_ULE)
            .Case("gtu", CmpInst::FCMP_UGT)
            .Case("geu", CmpInst::FCMP_UGE)
            .Case("num", CmpInst::FCMP_ORD)
            .Case("nan", CmpInst::FCMP_UNO)
            .Default(std::nullopt);
    return predicate ? b.CreateFCmp(*predicate, a, bValue) : nullptr;
  }
  bool isSigned = type.isSigned();
  std::optional<CmpInst::Predicate> predicate =
      StringSwitch<std::optional<CmpInst::Predicate>>(op)
          .Case("eq", CmpInst::ICMP_EQ)
          .Case("ne", CmpInst::ICMP_NE)
          .Case("lt", isSigned ? CmpInst::ICMP_SLT : CmpInst::ICMP_ULT)
          .Case("le", isSigned ? CmpInst::ICMP_SLE : CmpInst::ICMP_ULE)
          .Case("gt", isSigned ? CmpInst::ICMP_SGT : CmpInst::ICMP_UGT)
          .Case("ge", isSigned ? CmpInst::ICMP_SGE : CmpInst::ICMP_UGE)
          .Case("lo", CmpInst::ICMP_ULT)
          .Case("ls", CmpInst::ICMP_ULE)
          .Case("hi", CmpInst::ICMP_UGT)
          .Case("hs", CmpInst::ICMP_UGE)
          .Default(std::nullopt);
  return predicate ? b.CreateICmp(*predicate, a, bValue) : nullptr;
}

/// A shift amount (u32) clamped to `limit`, where PTX shifts saturate.
Value *PTXTranslator::shiftAmount(Value *amount, unsigned limit) {
  Value *limitValue = ConstantInt::get(amount->getType(), limit);
  return b.CreateSelect(b.CreateICmpUGT(amount, limitValue), limitValue,
                        amount);
}

//===- mov, cvt -----------------------------------------------------------===//

/// mov: copies, packs `{a, b}` and unpacks into `{a, b}`, reads special
/// registers.
bool PTXTranslator::translateMov(const PtxStatement &statement) {
  SmallVector<PtxType, 3> types = typesOf(statement);
  if (types.size() != 1 || statement.operands.size() != 2)
    return false;
  Type *type = types[0].kind == PtxType::Predicate
                   ? b.getInt1Ty()
                   : b.getIntNTy(types[0].totalBits());
  if (types[0].isFloat() && types[0].lanes == 1)
    type = types[0].elementType(context);
  return write(statement.operands[0], read(statement.operands[1], type));
}

/// cvt between integer and floating-point types of any width, with the
/// rounding, saturation and flushing modifiers.
/// cvt.{rna,rn,rz}{.satfinite}.tf32.f32 d, a: a float keeping 10 fraction
/// bits (tensor cores' tf32), the 13 bits below rounded away from zero on
/// ties (rna), to even (rn) or cut (rz); NaN stays NaN, and .satfinite
/// keeps results that round past the largest finite value finite.
bool PTXTranslator::translateCvtToTF32(const PtxStatement &statement) {
  const auto &ops = statement.operands;
  if (ops.size() != 2 || !statement.has("f32"))
    return false;
  Value *source = read(ops[1], b.getFloatTy());
  if (!source)
    return false;
  Value *bits = b.CreateBitCast(source, b.getInt32Ty());
  Value *increment;
  if (statement.has("rna"))
    increment = b.getInt32(0x1000);
  else if (statement.has("rn"))
    increment = b.CreateAdd(b.getInt32(0xfff),
                            b.CreateAnd(b.CreateLShr(bits, 13), b.getInt32(1)));
  else if (statement.has("rz"))
    increment = b.getInt32(0);
  else
    return false;
  Value *rounded =
      b.CreateAnd(b.CreateAdd(bits, increment), b.getInt32(0xffffe000u));
  Value *magnitude = b.CreateAnd(bits, b.getInt32(0x7fffffff));
  if (statement.has("satfinite")) {
    // Finite inputs that rounded to infinity become the largest tf32.
    Value *overflow =
        b.CreateAnd(b.CreateICmpULT(magnitude, b.getInt32(0x7f800000)),
                    b.CreateICmpEQ(b.CreateAnd(rounded, b.getInt32(0x7fffffff)),
                                   b.getInt32(0x7f800000)));
    rounded =
        b.CreateSelect(overflow,
                       b.CreateOr(b.CreateAnd(bits, b.getInt32(0x80000000u)),
                                  b.getInt32(0x7f7fe000)),
                       rounded);
  }
  Value *isNaN = b.CreateICmpUGT(magnitude, b.getInt32(0x7f800000));
  return write(ops[0], b.CreateSelect(isNaN, bits, rounded));
}

bool PTXTranslator::translateCvt(const PtxStatement &statement) {
  if (statement.has("tf32"))
    return translateCvtToTF32(statement);
  SmallVector<PtxType, 3> types = typesOf(statement);
  if (types.size() != 2 || statement.has("satfinite"))
    return false;
  const PtxType &to = types[0];
  const PtxType &from = types[1];
  const auto &ops = statement.operands;
  Type *toElement = to.elementType(context);
  Type *fromElement = from.elementType(context);
  // cvt.rn.f16x2.f32 d, a, b: `a` goes to the upper half.
  if (to.lanes == 2) {
    if (!from.isFloat() || from.bits != 32 || ops.size() != 3)
      return false;
    Rounding rounding = roundingOf(statement, false).value_or(Rounding::Nearest);
    Value *high = read(ops[1], fromElement);
    Value *low = read(ops[2], fromElement);
    if (!high || !low)
      return false;
    Value *lowResult = finishFloat(statement, fromDouble(toDouble(low), toElement, rounding));
    Value *highResult = finishFloat(statement, fromDouble(toDouble(high), toElement, rounding));
    return write(ops[0], packLanes({lowResult, highResult}));
  }
  if (ops.size() != 2 || from.lanes != 1)
    return false;
  Value *source = read(ops[1], fromElement);
  if (!source)
    return false;
  if (from.isFloat() && statement.has("ftz") && from.bits == 32)
    source = flushSubnormal(source);
  Value *result;
  if (to.isFloat() && from.isFloat()) {
    std::optional<Rounding> integral = roundingOf(statement, true);
    if (integral) {
      if (to.bits != from.bits || to.brain != from.brain)
        return false;
      result = roundIntegral(source, *integral);
    } else if (toElement == fromElement) {
      result = source;
    } else {
      Rounding rounding =
          roundingOf(statement, false).value_or(Rounding::Nearest);
      result = fromDouble(toDouble(source), toElement, rounding);
    }
    result = finishFloat(statement, result);
  } else if (to.isFloat()) {
    // Integers of up to 32 bits are exact in double; wider ones are rounded
    // to odd there first, so that the final rounding is still correct.
    Rounding rounding = roundingOf(statement, false).value_or(Rounding::Nearest);
    Value *wide;
    if (from.bits <= 32) {
      wide = from.isSigned() ? b.CreateSIToFP(source, b.getDoubleTy())
                             : b.CreateUIToFP(source, b.getDoubleTy());
    } else if (toElement->isDoubleTy()) {
      if (rounding != Rounding::Nearest)
        return false;
      wide = from.isSigned() ? b.CreateSIToFP(source, b.getDoubleTy())
                             : b.CreateUIToFP(source, b.getDoubleTy());
    } else {
      Value *negative = from.isSigned() ? b.CreateICmpSLT(source, b.getInt64(0))
                                        : b.getFalse();
      Value *magnitude = b.CreateSelect(negative, b.CreateNeg(source), source);
      // Keep 53 significant bits and fold the rest into a sticky last bit.
      Value *leading = intrinsic(Intrinsic::ctlz, b.getInt64Ty(),
                                 {magnitude, b.getTrue()});
      Value *drop = b.CreateSelect(b.CreateICmpULT(leading, b.getInt64(11)),
                                   b.CreateSub(b.getInt64(11), leading),
                                   b.getInt64(0));
      Value *mask = b.CreateSub(b.CreateShl(b.getInt64(1), drop), b.getInt64(1));
      Value *kept = b.CreateAnd(magnitude, b.CreateNot(mask));
      Value *lost = b.CreateICmpNE(b.CreateAnd(magnitude, mask), b.getInt64(0));
      Value *sticky = b.CreateSelect(lost, b.CreateShl(b.getInt64(1), drop),
                                     b.getInt64(0));
      Value *odd = b.CreateUIToFP(b.CreateOr(kept, sticky), b.getDoubleTy());
      wide = b.CreateSelect(negative, b.CreateFNeg(odd), odd);
    }
    result = finishFloat(statement, fromDouble(wide, toElement, rounding));
  } else if (from.isFloat()) {
    // Float to integer: round as asked, then saturate; NaN gives 0.
    Rounding rounding = roundingOf(statement, true).value_or(Rounding::Zero);
    Value *wide = roundIntegral(toDouble(source), rounding);
    result = intrinsic(to.isSigned() ? Intrinsic::fptosi_sat
                                     : Intrinsic::fptoui_sat,
                       {toElement, b.getDoubleTy()}, {wide});
  } else {
    Value *wide = extend(source, 128, from.isSigned());
    if (statement.has("sat"))
      wide = clampToRange(wide, to.bits, to.isSigned());
    result = b.CreateTrunc(wide, toElement);
  }
  return write(ops[0], result, to.isSigned());
}

//===- Arithmetic ---------------------------------------------------------===//

bool PTXTranslator::translateArithmetic(const PtxStatement &statement) {
  SmallVector<PtxType, 3> types = typesOf(statement);
  if (types.size() != 1)
    return false;
  if (types[0].isFloat())
    return translateFloatArithmetic(statement);
  return translateIntegerArithmetic(statement);
}

/// add/sub/mul/fma/mad on f16, f16x2, bf16, bf16x2, f32, f64.
bool PTXTranslator::translateFloatArithmetic(const PtxStatement &statement) {
  PtxType type = typesOf(statement)[0];
  StringRef op = statement.opcode;
  if (op == "mad")
    op = "fma";
  unsigned arity = op == "fma" ? 3 : 2;
  if (statement.operands.size() != arity + 1)
    return false;
  Rounding rounding = roundingOf(statement, false).value_or(Rounding::Nearest);
  SmallVector<const PtxOperand *, 3> sources;
  for (unsigned i = 1; i <= arity; ++i)
    sources.push_back(&statement.operands[i]);
  Type *element = type.elementType(context);
  bool ftz = statement.has("ftz");
  Value *result = mapLanes(type, sources, [&](ArrayRef<Value *> lanes) {
    SmallVector<Value *, 3> args(lanes.begin(), lanes.end());
    if (ftz)
      for (Value *&arg : args)
        arg = flushSubnormal(arg);
    Value *value = floatArithmetic(op, args, element, rounding);
    return value ? finishFloat(statement, value) : nullptr;
  });
  return write(statement.operands[0], result);
}

/// Integer add/sub/mul/mad, with .lo/.hi/.wide, .sat and the x2 lanes.
bool PTXTranslator::translateIntegerArithmetic(const PtxStatement &statement) {
  PtxType type = typesOf(statement)[0];
  StringRef op = statement.opcode;
  if (statement.has("cc"))
    return translateCarry(statement);
  bool wide = statement.has("wide");
  bool high = statement.has("hi");
  bool saturating = statement.has("sat");
  unsigned arity = op == "mad" ? 3 : 2;
  const auto &ops = statement.operands;
  if (ops.size() != arity + 1 || (saturating && type.kind != PtxType::Signed))
    return false;
  unsigned bits = type.bits;
  bool isSigned = type.isSigned();
  if (wide) {
    if (type.lanes != 1 || bits > 32)
      return false;
    Value *a = read(ops[1], b.getIntNTy(bits));
    Value *c = read(ops[2], b.getIntNTy(bits));
    if (!a || !c)
      return false;
    Value *product = b.CreateMul(extend(a, 2 * bits, isSigned),
                                 extend(c, 2 * bits, isSigned));
    if (op == "mad") {
      Value *addend = read(ops[3], b.getIntNTy(2 * bits));
      if (!addend)
        return false;
      product = b.CreateAdd(product, addend);
    }
    return write(ops[0], product);
  }
  SmallVector<const PtxOperand *, 3> sources;
  for (unsigned i = 1; i <= arity; ++i)
    sources.push_back(&ops[i]);
  Value *result = mapLanes(type, sources, [&](ArrayRef<Value *> args) -> Value * {
    Value *value;
    if (op == "add")
      value = saturating ? intrinsic(Intrinsic::sadd_sat, args[0]->getType(),
                                     {args[0], args[1]})
                         : b.CreateAdd(args[0], args[1]);
    else if (op == "sub")
      value = saturating ? intrinsic(Intrinsic::ssub_sat, args[0]->getType(),
                                     {args[0], args[1]})
                         : b.CreateSub(args[0], args[1]);
    else if (high) {
      Value *product = b.CreateMul(extend(args[0], 2 * bits, isSigned),
                                   extend(args[1], 2 * bits, isSigned));
      value = b.CreateTrunc(b.CreateLShr(product, bits), args[0]->getType());
      if (op == "mad") {
        if (saturating) {
          // mad.hi.sat.s32: the high half plus c, saturated.
          Value *sum = b.CreateAdd(extend(value, 2 * bits, true),
                                   extend(args[2], 2 * bits, true));
          return b.CreateTrunc(clampToRange(sum, bits, true),
                               args[0]->getType());
        }
        value = b.CreateAdd(value, args[2]);
      }
      return value;
    } else {
      value = b.CreateMul(args[0], args[1]);
      if (op == "mad")
        value = saturating ? intrinsic(Intrinsic::sadd_sat, value->getType(),
                                       {value, args[2]})
                           : b.CreateAdd(value, args[2]);
    }
    return value;
  });
  return write(ops[0], result);
}

/// neg, abs (integer and floating point, x2 lanes).
bool PTXTranslator::translateUnary(const PtxStatement &statement) {
  SmallVector<PtxType, 3> types = typesOf(statement);
  if (types.size() != 1 || statement.operands.size() != 2)
    return false;
  const PtxType &type = types[0];
  bool negate = statement.opcode == "neg";
  Value *result = mapLanes(type, {&statement.operands[1]},
                           [&](ArrayRef<Value *> args) -> Value * {
    Value *value = args[0];
    if (!type.isFloat())
      return negate ? b.CreateNeg(value)
                    : intrinsic(Intrinsic::abs, value->getType(),
                                {value, b.getFalse()});
    if (statement.has("ftz"))
      value = flushSubnormal(value);
    // The sign bit alone changes, for NaN too.
    return negate ? b.CreateFNeg(value)
                  : intrinsic(Intrinsic::fabs, value->getType(), value);
  });
  return write(statement.operands[0], result);
}

/// min/max: integers (.relu clamps at 0), floats (.NaN propagates NaN).
bool PTXTranslator::translateMinMax(const PtxStatement &statement) {
  SmallVector<PtxType, 3> types = typesOf(statement);
  if (types.size() != 1 || statement.operands.size() != 3 ||
      statement.has("xorsign"))
    return false;
  const PtxType &type = types[0];
  bool max = statement.opcode == "max";
  Value *result = mapLanes(
      type, {&statement.operands[1], &statement.operands[2]},
      [&](ArrayRef<Value *> args) -> Value * {
        if (type.isFloat()) {
          SmallVector<Value *, 2> values(args.begin(), args.end());
          if (statement.has("ftz"))
            for (Value *&value : values)
              value = flushSubnormal(value);
          return floatMinMax(values[0], values[1], max, statement.has("NaN"));
        }
        Intrinsic::ID id = type.isSigned()
                               ? (max ? Intrinsic::smax : Intrinsic::smin)
                               : (max ? Intrinsic::umax : Intrinsic::umin);
        Value *value = intrinsic(id, args[0]->getType(), {args[0], args[1]});
        if (statement.has("relu"))
          value = intrinsic(Intrinsic::smax, value->getType(),
                            {value, ConstantInt::get(value->getType(), 0)});
        return value;
      });
  return write(statement.operands[0], result);
}

/// div/rem. Integer division by zero does not trap on the GPU; here it
/// yields all ones (div) or the dividend (rem), and INT_MIN / -1 wraps.
bool PTXTranslator::translateDivRem(const PtxStatement &statement) {
  SmallVector<PtxType, 3> types = typesOf(statement);
  if (types.size() != 1 || statement.operands.size() != 3 ||
      types[0].lanes != 1)
    return false;
  const PtxType &type = types[0];
  Type *element = type.elementType(context);
  Value *a = read(statement.operands[1], element);
  Value *d = read(statement.operands[2], element);
  if (!a || !d)
    return false;
  Value *result;
  if (type.isFloat()) {
    if (statement.opcode != "div")
      return false;
    // div.rn is exact division; div.full and div.approx are at least as
    // accurate as the hardware when done exactly.
    std::optional<Rounding> rounding = roundingOf(statement, false);
    if (rounding && *rounding != Rounding::Nearest)
      return false;
    if (statement.has("ftz")) {
      a = flushSubnormal(a);
      d = flushSubnormal(d);
    }
    result = finishFloat(statement, b.CreateFDiv(a, d));
  } else {
    Value *zero = ConstantInt::get(element, 0);
    Value *byZero = b.CreateICmpEQ(d, zero);
    Value *overflow = b.getFalse();
    if (type.isSigned())
      overflow = b.CreateAnd(
          b.CreateICmpEQ(a, ConstantInt::get(element, APInt::getSignedMinValue(type.bits))),
          b.CreateICmpEQ(d, ConstantInt::getAllOnesValue(element)));
    Value *safe = b.CreateSelect(b.CreateOr(byZero, overflow),
                                 ConstantInt::get(element, 1), d);
    bool div = statement.opcode == "div";
    Value *quotient = div ? (type.isSigned() ? b.CreateSDiv(a, safe)
                                             : b.CreateUDiv(a, safe))
                          : (type.isSigned() ? b.CreateSRem(a, safe)
                                             : b.CreateURem(a, safe));
    Value *overflowResult = div ? a : zero;
    quotient = b.CreateSelect(overflow, overflowResult, quotient);
    result = b.CreateSelect(byZero,
                            div ? ConstantInt::getAllOnesValue(element) : a,
                            quotient);
  }
  return write(statement.operands[0], result);
}

/// sqrt, rsqrt, rcp, ex2, lg2, sin, cos, tanh. The `.approx` forms are
/// computed as accurately as the CPU can, which is within their error
/// bounds; narrow types go through float and round once.
bool PTXTranslator::translateApproximation(const PtxStatement &statement) {
  SmallVector<PtxType, 3> types = typesOf(statement);
  if (types.size() != 1 || !types[0].isFloat() ||
      statement.operands.size() != 2)
    return false;
  std::optional<Rounding> rounding = roundingOf(statement, false);
  if (rounding && *rounding != Rounding::Nearest)
    return false;
  const PtxType &type = types[0];
  StringRef op = statement.opcode;
  Type *element = type.elementType(context);
  Module *module = function.getParent();
  auto compute = [&](Value *x) -> Value * {
    Type *t = x->getType();
    if (op == "sqrt")
      return intrinsic(Intrinsic::sqrt, t, x);
    if (op == "rsqrt")
      return b.CreateFDiv(ConstantFP::get(t, 1.0),
                          intrinsic(Intrinsic::sqrt, t, x));
    if (op == "rcp")
      return b.CreateFDiv(ConstantFP::get(t, 1.0), x);
    if (op == "ex2")
      return intrinsic(Intrinsic::exp2, t, x);
    if (op == "lg2")
      return intrinsic(Intrinsic::log2, t, x);
    if (op == "sin")
      return intrinsic(Intrinsic::sin, t, x);
    if (op == "cos")
      return intrinsic(Intrinsic::cos, t, x);
    // tanh: respec's device math library (libdevice's __nv_tanhf).
    StringRef name = t->isDoubleTy() ? "__nv_tanh" : "__nv_tanhf";
    FunctionCallee callee = module->getOrInsertFunction(name, t, t);
    return b.CreateCall(callee, {x});
  };
  Value *result = mapLanes(type, {&statement.operands[1]},
                           [&](ArrayRef<Value *> args) -> Value * {
    Value *x = args[0];
    if (statement.has("ftz") && element->isFloatTy())
      x = flushSubnormal(x);
    if (element->isFloatTy() || element->isDoubleTy())
      return finishFloat(statement, compute(x));
    Value *wide = compute(b.CreateFPTrunc(toDouble(x), b.getFloatTy()));
    return fromDouble(b.CreateFPExt(wide, b.getDoubleTy()), element,
                      Rounding::Nearest);
  });
  return write(statement.operands[0], result);
}

//===- Comparisons and selection ------------------------------------------===//

/// The optional `.and`/`.or`/`.xor` combination of setp and set with a
/// predicate operand.
static std::optional<Instruction::BinaryOps>
booleanOf(const PtxStatement &statement) {
  if (statement.has("and"))
    return Instruction::And;
  if (statement.has("or"))
    return Instruction::Or;
  if (statement.has("xor"))
    return Instruction::Xor;
  return std::nullopt;
}

/// setp.cmp{.bool}.type p[|q], a, b{, c}: q is the negated comparison, or
/// for x2 types the comparison of the upper lanes.
bool PTXTranslator::translateSetp(const PtxStatement &statement) {
  SmallVector<PtxType, 3> types = typesOf(statement);
  const auto &ops = statement.operands;
  if (types.size() != 1 || statement.modifiers.empty() ||
      ops.size() < 3 || ops[0].kind != PtxOperand::Register)
    return false;
  const PtxType &type = types[0];
  StringRef op = statement.modifiers[0];
  std::optional<Instruction::BinaryOps> boolean = booleanOf(statement);
  if (boolean.has_value() != (ops.size() == 4))
    return false;
  Value *combineWith = boolean ? read(ops[3], b.getInt1Ty()) : nullptr;
  if (boolean && !combineWith)
    return false;
  SmallVector<Value *, 2> aLanes, bLanes;
  if (!readLanes(ops[1], type, aLanes) || !readLanes(ops[2], type, bLanes))
    return false;
  SmallVector<Value *, 2> results;
  for (unsigned i = 0; i < type.lanes; ++i) {
    Value *x = aLanes[i], *y = bLanes[i];
    if (statement.has("ftz")) {
      x = flushSubnormal(x);
      y = flushSubnormal(y);
    }
    Value *result = compare(op, x, y, type);
    if (!result)
      return false;
    results.push_back(result);
  }
  auto combine = [&](Value *value) {
    return boolean ? b.CreateBinOp(*boolean, value, combineWith) : value;
  };
  Value *first = combine(results[0]);
  Value *second = type.lanes == 2 ? combine(results[1])
                                  : combine(b.CreateNot(results[0]));
  if (!writeRegister(ops[0].name, first))
    return false;
  return ops[0].pairName.empty() || writeRegister(ops[0].pairName, second);
}

/// set.cmp{.bool}.dtype.stype d, a, b{, c}: 1.0 or all ones where the
/// comparison holds (per lane for x2 types), else 0.
bool PTXTranslator::translateSet(const PtxStatement &statement) {
  SmallVector<PtxType, 3> types = typesOf(statement);
  const auto &ops = statement.operands;
  if (types.size() != 2 || statement.modifiers.empty() || ops.size() < 3)
    return false;
  PtxType to = types[0];
  const PtxType &from = types[1];
  StringRef op = statement.modifiers[0];
  std::optional<Instruction::BinaryOps> boolean = booleanOf(statement);
  if (boolean.has_value() != (ops.size() == 4))
    return false;
  Value *combineWith = boolean ? read(ops[3], b.getInt1Ty()) : nullptr;
  if (boolean && !combineWith)
    return false;
  // With x2 sources each half of the destination holds one lane's result.
  unsigned laneBits = from.lanes == 2 ? 16 : to.bits;
  Type *laneType = to.isFloat() ? to.elementType(context) : b.getIntNTy(laneBits);
  if (from.lanes == 2 && to.isFloat() && to.lanes != 2)
    return false;
  Value *result = mapLanes(from, {&ops[1], &ops[2]},
                           [&](ArrayRef<Value *> args) -> Value * {
    Value *x = args[0], *y = args[1];
    if (statement.has("ftz") && from.isFloat()) {
      x = flushSubnormal(x);
      y = flushSubnormal(y);
    }
    Value *holds = compare(op, x, y, from);
    if (!holds)
      return nullptr;
    if (boolean)
      holds = b.CreateBinOp(*boolean, holds, combineWith);
    Value *yes = laneType->isFloatingPointTy()
                     ? ConstantFP::get(laneType, 1.0)
                     : ConstantInt::getAllOnesValue(laneType);
    return b.CreateSelect(holds, yes, Constant::getNullValue(laneType));
  });
  return write(ops[0], result);
}

/// selp.type d, a, b, c: d = c ? a : b.
/// slct.dtype.{s32,f32} d, a, b, c: a where c >= 0, else b (.ftz flushes a
/// subnormal c to zero, which does not change the comparison's result).
bool PTXTranslator::translateSlct(const PtxStatement &statement) {
  SmallVector<PtxType, 3> types = typesOf(statement);
  const auto &ops = statement.operands;
  if (types.size() != 2 || ops.size() != 4 || types[0].lanes != 1 ||
      types[1].bits != 32)
    return false;
  Type *type = types[0].elementType(context);
  Value *a = read(ops[1], type);
  Value *c = read(ops[2], type);
  Value *selector = read(ops[3], types[1].elementType(context));
  if (!a || !c || !selector)
    return false;
  // -0.0 >= 0 holds, NaN >= 0 does not (PTX: NaN selects b).
  Value *nonNegative =
      types[1].isFloat()
          ? b.CreateFCmpOGE(selector, ConstantFP::get(selector->getType(), 0))
          : b.CreateICmpSGE(selector, b.getInt32(0));
  return write(ops[0], b.CreateSelect(nonNegative, a, c), types[0].isSigned());
}

/// copysign.{f32,f64} d, a, b: b with the sign of a (note the order).
bool PTXTranslator::translateCopySign(const PtxStatement &statement) {
  SmallVector<PtxType, 3> types = typesOf(statement);
  const auto &ops = statement.operands;
  if (types.size() != 1 || !types[0].isFloat() || types[0].lanes != 1 ||
      ops.size() != 3)
    return false;
  Type *type = types[0].elementType(context);
  Value *sign = read(ops[1], type);
  Value *magnitude = read(ops[2], type);
  if (!sign || !magnitude)
    return false;
  return write(ops[0], b.CreateCopySign(magnitude, sign));
}

/// testp.{finite,infinite,number,notanumber,normal,subnormal}.{f32,f64} p, a.
bool PTXTranslator::translateTestp(const PtxStatement &statement) {
  SmallVector<PtxType, 3> types = typesOf(statement);
  const auto &ops = statement.operands;
  if (types.size() != 1 || !types[0].isFloat() || types[0].lanes != 1 ||
      ops.size() != 2)
    return false;
  FPClassTest test = fcNone;
  if (statement.has("finite"))
    test = fcFinite;
  else if (statement.has("infinite"))
    test = fcInf;
  else if (statement.has("number"))
    test = ~fcNan & fcAllFlags;
  else if (statement.has("notanumber"))
    test = fcNan;
  else if (statement.has("normal"))
    test = fcNormal;
  else if (statement.has("subnormal"))
    test = fcSubnormal;
  else
    return false;
  Value *value = read(ops[1], types[0].elementType(context));
  if (!value)
    return false;
  return write(ops[0], b.createIsFPClass(value, test));
}

/// Carry chains of multi-word arithmetic: add.cc, addc{.cc}, sub.cc,
/// subc{.cc}, mad{.lo,.hi}.cc and madc{.lo,.hi}{.cc} on 32- and 64-bit
/// integers. addc adds the carry flag, subc subtracts it (a borrow), madc
/// adds it to the product's half plus c; `.cc` sets the flag to the carry
/// (or borrow) out of the result's width.
bool PTXTranslator::translateCarry(const PtxStatement &statement) {
  SmallVector<PtxType, 3> types = typesOf(statement);
  StringRef op = statement.opcode;
  bool withCarry = op.ends_with("c");
  StringRef base = withCarry ? op.drop_back() : op;
  unsigned arity = base == "mad" ? 3 : 2;
  const auto &ops = statement.operands;
  // A predicated instruction would leave the flag set on one path only.
  if (types.size() != 1 || types[0].lanes != 1 || !types[0].isInteger() ||
      (types[0].bits != 32 && types[0].bits != 64) || ops.size() != arity + 1 ||
      !statement.guard.empty() || (withCarry && !carryFlag) ||
      statement.has("sat") ||
      (base == "mad" && !statement.has("lo") && !statement.has("hi")))
    return false;
  unsigned bits = types[0].bits;
  Type *word = b.getIntNTy(bits), *doubleWord = b.getIntNTy(2 * bits);
  Value *a = read(ops[1], word), *c = read(ops[2], word);
  Value *addend = arity == 3 ? read(ops[3], word) : nullptr;
  if (!a || !c || (arity == 3 && !addend))
    return false;
  Value *carryIn = withCarry ? b.CreateZExt(carryFlag, doubleWord)
                             : ConstantInt::get(doubleWord, 0);
  Value *wide;
  if (base == "sub") {
    // a - (c + CF) in twice the width: the borrow shows in the high half.
    wide = b.CreateSub(b.CreateZExt(a, doubleWord),
                       b.CreateAdd(b.CreateZExt(c, doubleWord), carryIn));
  } else {
    Value *first = a, *second = c;
    if (base == "mad") {
      bool isSigned = types[0].isSigned();
      Value *product = b.CreateMul(extend(a, 2 * bits, isSigned),
                                   extend(c, 2 * bits, isSigned));
      if (statement.has("hi"))
        product = b.CreateLShr(product, bits);
      first = b.CreateTrunc(product, word);
      second = addend;
    }
    wide = b.CreateAdd(b.CreateAdd(b.CreateZExt(first, doubleWord),
                                   b.CreateZExt(second, doubleWord)),
                       carryIn);
  }
  if (statement.has("cc"))
    carryFlag = b.CreateICmpNE(b.CreateLShr(wide, bits),
                               ConstantInt::get(doubleWord, 0));
  return write(ops[0], b.CreateTrunc(wide, word));
}

/// mul24.{lo,hi}.{s32,u32} d, a, b and mad24.lo d, a, b, c: the 48-bit
/// product of the low 24 bits of a and b (sign-extended for .s32), its low
/// 32 bits (.lo) or its bits 16 to 47 (.hi); mad24 adds c to .lo.
bool PTXTranslator::translateMul24(const PtxStatement &statement) {
  SmallVector<PtxType, 3> types = typesOf(statement);
  const auto &ops = statement.operands;
  bool mad = statement.opcode == "mad24";
  bool high = statement.has("hi");
  if (types.size() != 1 || types[0].isFloat() || types[0].bits != 32 ||
      ops.size() != (mad ? 4u : 3u) || high == statement.has("lo") ||
      (mad && high) || statement.has("sat"))
    return false;
  bool isSigned = types[0].isSigned();
  auto low24 = [&](const PtxOperand &operand) -> Value * {
    Value *value = read(operand, b.getInt32Ty());
    if (!value)
      return nullptr;
    Value *bits = b.CreateTrunc(value, b.getIntNTy(24));
    return isSigned ? b.CreateSExt(bits, b.getInt64Ty())
                    : b.CreateZExt(bits, b.getInt64Ty());
  };
  Value *x = low24(ops[1]);
  Value *y = low24(ops[2]);
  if (!x || !y)
    return false;
  Value *product = b.CreateMul(x, y);
  Value *result =
      b.CreateTrunc(high ? b.CreateLShr(product, 16) : product, b.getInt32Ty());
  if (mad) {
    Value *addend = read(ops[3], b.getInt32Ty());
    if (!addend)
      return false;
    result = b.CreateAdd(result, addend);
  }
  return write(ops[0], result, isSigned);
}

/// trap: as __trap(), the kernel stops with a launch failure (the runtime
/// reports it and stops the process).
bool PTXTranslator::translateTrap(const PtxStatement &statement) {
  if (!statement.operands.empty())
    return false;
  b.CreateIntrinsic(Intrinsic::trap, {});
  return true;
}

/// griddepcontrol.wait and .launch_dependents (programmatic dependent
/// launch: cudaGridDependencySynchronize, cudaTriggerProgrammaticLaunch-
/// Completion): the CPU runs a stream's kernels one after the other, so the
/// grids a kernel could wait for have completed before it starts, and
/// letting dependents start early is a hint.
bool PTXTranslator::translateGridDependency(const PtxStatement &statement) {
  return statement.operands.empty() && statement.modifiers.size() == 1 &&
         (statement.has("wait") || statement.has("launch_dependents"));
}

/// A call of the runtime function `name` (no arguments) that generated code
/// may not move: its value depends on which core runs the code.
Value *PTXTranslator::callCounter(StringRef name, Type *type) {
  FunctionCallee callee = runtimeFunction(name, type, {}, false);
  return b.CreateCall(callee);
}

bool PTXTranslator::translateSelp(const PtxStatement &statement) {
  SmallVector<PtxType, 3> types = typesOf(statement);
  const auto &ops = statement.operands;
  if (types.size() != 1 || ops.size() != 4)
    return false;
  Type *type = types[0].lanes == 1 ? types[0].elementType(context)
                                   : b.getIntNTy(types[0].totalBits());
  Value *a = read(ops[1], type);
  Value *c = read(ops[2], type);
  Value *condition = read(ops[3], b.getInt1Ty());
  if (!a || !c || !condition)
    return false;
  return write(ops[0], b.CreateSelect(condition, a, c), types[0].isSigned());
}

//===- Bit manipulation ---------------------------------------------------===//

/// and, or, xor, not, cnot on predicates and bit types.
bool PTXTranslator::translateLogic(const PtxStatement &statement) {
  SmallVector<PtxType, 3> types = typesOf(statement);
  const auto &ops = statement.operands;
  if (types.size() != 1 || types[0].isFloat())
    return false;
  Type *type = b.getIntNTy(types[0].totalBits());
  StringRef op = statement.opcode;
  bool unary = op == "not" || op == "cnot";
  if (ops.size() != (unary ? 2u : 3u))
    return false;
  Value *a = read(ops[1], type);
  Value *c = unary ? nullptr : read(ops[2], type);
  if (!a || (!unary && !c))
    return false;
  Value *result;
  if (op == "not")
    result = b.CreateNot(a);
  else if (op == "cnot")
    result = b.CreateZExt(b.CreateICmpEQ(a, ConstantInt::get(type, 0)), type);
  else if (op == "and")
    result = b.CreateAnd(a, c);
  else if (op == "or")
    result = b.CreateOr(a, c);
  else
    result = b.CreateXor(a, c);
  return write(ops[0], result);
}

/// shl/shr: amounts of the width or more shift everything out (shr.s fills
/// with the sign).
bool PTXTranslator::translateShift(const PtxStatement &statement) {
  SmallVector<PtxType, 3> types = typesOf(statement);
  const auto &ops = statement.operands;
  if (types.size() != 1 || ops.size() != 3 || types[0].isFloat())
    return false;
  const PtxType &type = types[0];
  Value *amount = read(ops[2], b.getInt32Ty());
  if (!amount)
    return false;
  Value *result = mapLanes(type, {&ops[1]}, [&](ArrayRef<Value *> args) {
    Value *value = args[0];
    Type *t = value->getType();
    Value *count = b.CreateZExtOrTrunc(shiftAmount(amount, type.bits), t);
    Value *inRange = b.CreateICmpULT(amount, b.getInt32(type.bits));
    if (statement.opcode == "shl")
      return b.CreateSelect(inRange, b.CreateShl(value, count),
                            ConstantInt::get(t, 0));
    if (type.isSigned())
      return b.CreateAShr(value, shiftAmount(count, type.bits - 1));
    return b.CreateSelect(inRange, b.CreateLShr(value, count),
                          ConstantInt::get(t, 0));
  });
  return write(ops[0], result);
}

/// shf.{l,r}.{wrap,clamp}.b32 d, a, b, c: shifts the 64-bit {b, a} (b high)
/// by c (mod 32 with .wrap, at most 32 with .clamp) and keeps the upper (l)
/// or lower (r) word.
bool PTXTranslator::translateFunnelShift(const PtxStatement &statement) {
  const auto &ops = statement.operands;
  bool left = statement.has("l");
  bool clamp = statement.has("clamp");
  if (ops.size() != 4 || left == statement.has("r") ||
      clamp == statement.has("wrap") || !statement.has("b32"))
    return false;
  Value *low = read(ops[1], b.getInt32Ty());
  Value *high = read(ops[2], b.getInt32Ty());
  Value *amount = read(ops[3], b.getInt32Ty());
  if (!low || !high || !amount)
    return false;
  Value *shifted = intrinsic(left ? Intrinsic::fshl : Intrinsic::fshr,
                             b.getInt32Ty(), {high, low, amount});
  if (clamp) {
    // llvm.fsh* take the amount mod 32; a clamped 32 moves a whole word.
    Value *whole = b.CreateICmpUGE(amount, b.getInt32(32));
    shifted = b.CreateSelect(whole, left ? low : high, shifted);
  }
  return write(ops[0], shifted);
}

/// bfe (extract, sign-extended for .s types) and bfi (insert). Positions
/// and lengths take their low 8 bits; fields reaching past the word are cut.
bool PTXTranslator::translateBitField(const PtxStatement &statement) {
  SmallVector<PtxType, 3> types = typesOf(statement);
  const auto &ops = statement.operands;
  bool insert = statement.opcode == "bfi";
  if (types.size() != 1 || types[0].isFloat() ||
      ops.size() != (insert ? 5u : 4u))
    return false;
  unsigned bits = types[0].bits;
  Type *type = b.getIntNTy(bits);
  Type *wide = b.getIntNTy(2 * bits);
  Value *a = read(ops[1], type);
  Value *other = insert ? read(ops[2], type) : nullptr;
  Value *position = read(ops[insert ? 3 : 2], b.getInt32Ty());
  Value *length = read(ops[insert ? 4 : 3], b.getInt32Ty());
  if (!a || !position || !length || (insert && !other))
    return false;
  position = b.CreateZExt(b.CreateAnd(position, 0xff), wide);
  length = b.CreateZExt(b.CreateAnd(length, 0xff), wide);
  Value *limit = ConstantInt::get(wide, bits);
  Value *one = ConstantInt::get(wide, 1);
  auto minimum = [&](Value *x, Value *y) {
    return intrinsic(Intrinsic::umin, wide, {x, y});
  };
  if (insert) {
    // Fields starting beyond the word leave b unchanged.
    Value *start = minimum(position, limit);
    Value *mask = b.CreateShl(
        b.CreateSub(b.CreateShl(one, minimum(length, limit)), one), start);
    Value *field = b.CreateAnd(b.CreateShl(b.CreateZExt(a, wide), start), mask);
    Value *kept = b.CreateAnd(b.CreateZExt(other, wide), b.CreateNot(mask));
    return write(ops[0], b.CreateTrunc(b.CreateOr(kept, field), type));
  }
  bool isSigned = types[0].isSigned();
  Value *extended = extend(a, 2 * bits, isSigned);
  Value *shifted = isSigned ? b.CreateAShr(extended, minimum(position, limit))
                            : b.CreateLShr(extended, minimum(position, limit));
  Value *width = minimum(length, limit);
  Value *mask = b.CreateSub(b.CreateShl(one, width), one);
  Value *field = b.CreateAnd(shifted, mask);
  if (isSigned) {
    // Replicate the field's top bit (the operand's sign past the word).
    Value *pad = b.CreateSub(ConstantInt::get(wide, 2 * bits), width);
    field = b.CreateAShr(b.CreateShl(field, pad), pad);
    field = b.CreateSelect(b.CreateICmpEQ(width, ConstantInt::get(wide, 0)),
                           ConstantInt::get(wide, 0), field);
  }
  return write(ops[0], b.CreateTrunc(field, type), isSigned);
}

/// brev, popc, clz, bfind{.shiftamt}.
bool PTXTranslator::translateBitCount(const PtxStatement &statement) {
  SmallVector<PtxType, 3> types = typesOf(statement);
  const auto &ops = statement.operands;
  if (types.size() != 1 || types[0].isFloat() || ops.size() != 2 ||
      types[0].bits < 32)
    return false;
  const PtxType &type = types[0];
  Type *t = b.getIntNTy(type.bits);
  Value *a = read(ops[1], t);
  if (!a)
    return false;
  StringRef op = statement.opcode;
  if (op == "brev")
    return write(ops[0], intrinsic(Intrinsic::bitreverse, t, a));
  if (op == "popc")
    return write(ops[0], b.CreateZExtOrTrunc(intrinsic(Intrinsic::ctpop, t, a),
                                             b.getInt32Ty()));
  Value *leading = b.CreateZExtOrTrunc(
      intrinsic(Intrinsic::ctlz, t, {a, b.getFalse()}), b.getInt32Ty());
  if (op == "clz")
    return write(ops[0], leading);
  // bfind: the position of the most significant bit that differs from the
  // sign (for .s types), or 0xffffffff if there is none.
  if (type.isSigned()) {
    Value *negative = b.CreateICmpSLT(a, ConstantInt::get(t, 0));
    a = b.CreateSelect(negative, b.CreateNot(a), a);
    leading = b.CreateZExtOrTrunc(
        intrinsic(Intrinsic::ctlz, t, {a, b.getFalse()}), b.getInt32Ty());
  }
  Value *none = b.CreateICmpEQ(a, ConstantInt::get(t, 0));
  Value *position = statement.has("shiftamt")
                        ? leading
                        : b.CreateSub(b.getInt32(type.bits - 1), leading);
  return write(ops[0], b.CreateSelect(none, b.getInt32(-1), position));
}

/// prmt.b32{.mode} d, a, b, c: picks bytes of the 8-byte {b, a}.
bool PTXTranslator::translatePermute(const PtxStatement &statement) {
  const auto &ops = statement.operands;
  if (ops.size() != 4 || !statement.has("b32"))
    return false;
  Value *a = read(ops[1], b.getInt32Ty());
  Value *high = read(ops[2], b.getInt32Ty());
  Value *control = read(ops[3], b.getInt32Ty());
  if (!a || !high || !control)
    return false;
  Value *source = b.CreateOr(b.CreateZExt(a, b.getInt64Ty()),
                             b.CreateShl(b.CreateZExt(high, b.getInt64Ty()), 32));
  auto byteAt = [&](Value *index) {
    Value *shift = b.CreateShl(b.CreateZExt(index, b.getInt64Ty()), 3);
    return b.CreateAnd(b.CreateLShr(source, shift), b.getInt64(0xff));
  };
  // The special modes: result bytes 0..3 as a function of c[1:0] (PTX ISA,
  // prmt table), one hex digit per byte, byte 0 lowest.
  StringRef mode;
  for (StringRef modifier : statement.modifiers)
    if (modifier != "b32")
      mode = modifier;
  std::optional<std::array<uint16_t, 4>> table =
      StringSwitch<std::optional<std::array<uint16_t, 4>>>(mode)
          .Case("f4e", std::array<uint16_t, 4>{0x3210, 0x4321, 0x5432, 0x6543})
          .Case("b4e", std::array<uint16_t, 4>{0x5670, 0x6701, 0x7012, 0x0123})
          .Case("rc8", std::array<uint16_t, 4>{0x0000, 0x1111, 0x2222, 0x3333})
          .Case("ecl", std::array<uint16_t, 4>{0x3210, 0x3211, 0x3222, 0x3333})
          .Case("ecr", std::array<uint16_t, 4>{0x0000, 0x1110, 0x2210, 0x3210})
          .Case("rc16", std::array<uint16_t, 4>{0x1010, 0x3232, 0x1010, 0x3232})
          .Default(std::nullopt);
  if (!mode.empty() && !table)
    return false;
  Value *result = b.getInt64(0);
  for (unsigned i = 0; i < 4; ++i) {
    Value *byte;
    if (table) {
      // Select the table column by c[1:0].
      Value *selector = b.CreateAnd(control, 3);
      Value *index = b.getInt32(((*table)[3] >> (4 * i)) & 0xf);
      for (int row = 2; row >= 0; --row)
        index = b.CreateSelect(b.CreateICmpEQ(selector, b.getInt32(row)),
                               b.getInt32(((*table)[row] >> (4 * i)) & 0xf),
                               index);
      byte = byteAt(index);
    } else {
      // Default mode: c's nibble i picks a byte (bits 0-2) and, with bit 3,
      // replicates that byte's sign bit instead.
      Value *nibble = b.CreateAnd(b.CreateLShr(control, 4 * i), 0xf);
      byte = byteAt(b.CreateAnd(nibble, 7));
      Value *sign = b.CreateSelect(
          b.CreateICmpNE(b.CreateAnd(byte, 0x80), b.getInt64(0)),
          b.getInt64(0xff), b.getInt64(0));
      byte = b.CreateSelect(b.CreateICmpNE(b.CreateAnd(nibble, 8), b.getInt32(0)),
                            sign, byte);
    }
    result = b.CreateOr(result, b.CreateShl(byte, 8 * i));
  }
  return write(ops[0], b.CreateTrunc(result, b.getInt32Ty()));
}

/// lop3.b32 d, a, b, c, lut: any function of three inputs given by its
/// truth table (bit index a*4 + b*2 + c).
bool PTXTranslator::translateLop3(const PtxStatement &statement) {
  const auto &ops = statement.operands;
  if (ops.size() != 5 || !statement.has("b32") ||
      ops[4].kind != PtxOperand::Integer)
    return false;
  Value *inputs[3];
  for (unsigned i = 0; i < 3; ++i)
    if (!(inputs[i] = read(ops[i + 1], b.getInt32Ty())))
      return false;
  Value *result = b.getInt32(0);
  for (unsigned minterm = 0; minterm < 8; ++minterm) {
    if (!((ops[4].integer >> minterm) & 1))
      continue;
    Value *term = b.getInt32(-1);
    for (unsigned i = 0; i < 3; ++i) {
      bool set = (minterm >> (2 - i)) & 1;
      term = b.CreateAnd(term, set ? inputs[i] : b.CreateNot(inputs[i]));
    }
    result = b.CreateOr(result, term);
  }
  return write(ops[0], result);
}

/// dp4a.atype.btype d, a, b, c: c plus the four byte products;
/// dp2a.{lo,hi}.atype.btype: c plus the two products of a's halves with
/// b's bytes 0-1 (.lo) or 2-3 (.hi).
bool PTXTranslator::translateDotProduct(const PtxStatement &statement) {
  SmallVector<PtxType, 3> types = typesOf(statement);
  const auto &ops = statement.operands;
  if (types.size() != 2 || ops.size() != 4)
    return false;
  bool four = statement.opcode == "dp4a";
  if (!four && statement.has("lo") == statement.has("hi"))
    return false;
  Value *a = read(ops[1], b.getInt32Ty());
  Value *bValue = read(ops[2], b.getInt32Ty());
  Value *sum = read(ops[3], b.getInt32Ty());
  if (!a || !bValue || !sum)
    return false;
  auto part = [&](Value *word, unsigned index, unsigned bits, bool isSigned) {
    Value *piece = b.CreateTrunc(b.CreateLShr(word, index * bits),
                                 b.getIntNTy(bits));
    return extend(piece, 32, isSigned);
  };
  unsigned terms = four ? 4 : 2;
  unsigned firstByte = !four && statement.has("hi") ? 2 : 0;
  for (unsigned i = 0; i < terms; ++i) {
    Value *x = part(a, i, four ? 8 : 16, types[0].isSigned());
    Value *y = part(bValue, firstByte + i, 8, types[1].isSigned());
    sum = b.CreateAdd(sum, b.CreateMul(x, y));
  }
  return write(ops[0], sum);
}

/// sad.type d, a, b, c: c + |a - b|.
bool PTXTranslator::translateSad(const PtxStatement &statement) {
  SmallVector<PtxType, 3> types = typesOf(statement);
  const auto &ops = statement.operands;
  if (types.size() != 1 || types[0].isFloat() || ops.size() != 4)
    return false;
  Type *t = types[0].elementType(context);
  Value *a = read(ops[1], t), *c = read(ops[2], t), *sum = read(ops[3], t);
  if (!a || !c || !sum)
    return false;
  bool isSigned = types[0].isSigned();
  Value *greater = isSigned ? b.CreateICmpSGT(a, c) : b.CreateICmpUGT(a, c);
  Value *difference = b.CreateSelect(greater, b.CreateSub(a, c),
                                     b.CreateSub(c, a));
  return write(ops[0], b.CreateAdd(sum, difference));
}

/// The SIMD video instructions v{add,sub,absdiff,min,max,avrg,set}{2,4}:
/// per 16-bit (2) or 8-bit (4) lane of a and b, extended by the operand
/// types, computed exactly, then saturated (.sat) or wrapped to the lane;
/// `.add` sums the lane results into c. vset yields 1 or 0 per lane.
bool PTXTranslator::translateVideo(const PtxStatement &statement) {
  SmallVector<PtxType, 3> types = typesOf(statement);
  const auto &ops = statement.operands;
  StringRef op = statement.opcode;
  bool isSet = op.starts_with("vset");
  unsigned lanes = op.back() == '2' ? 2 : 4;
  op = op.drop_back().drop_front();
  if (ops.size() != 4 || types.size() != (isSet ? 2u : 3u))
    return false;
  for (const PtxType &type : types)
    if (type.bits != 32 || type.isFloat())
      return false;
  bool resultSigned = !isSet && types[0].isSigned();
  bool aSigned = types[isSet ? 0 : 1].isSigned();
  bool bSigned = types[isSet ? 1 : 2].isSigned();
  StringRef comparison = isSet ? StringRef(statement.modifiers[2]) : "";
  bool accumulate = statement.has("add");
  Value *a = read(ops[1], b.getInt32Ty());
  Value *bValue = read(ops[2], b.getInt32Ty());
  Value *c = read(ops[3], b.getInt32Ty());
  if (!a || !bValue || !c)
    return false;
  unsigned laneBits = 32 / lanes;
  auto lane = [&](Value *word, unsigned index, bool isSigned) {
    Value *piece = b.CreateTrunc(b.CreateLShr(word, index * laneBits),
                                 b.getIntNTy(laneBits));
    return extend(piece, 64, isSigned);
  };
  Value *sum = b.CreateZExt(c, b.getInt64Ty());
  Value *packed = b.getInt64(0);
  for (unsigned i = 0; i < lanes; ++i) {
    Value *x = lane(a, i, aSigned), *y = lane(bValue, i, bSigned);
    Value *value;
    if (op == "add")
      value = b.CreateAdd(x, y);
    else if (op == "sub")
      value = b.CreateSub(x, y);
    else if (op == "absdiff")
      value = intrinsic(Intrinsic::abs, b.getInt64Ty(),
                        {b.CreateSub(x, y), b.getFalse()});
    else if (op == "min")
      value = intrinsic(Intrinsic::smin, b.getInt64Ty(), {x, y});
    else if (op == "max")
      value = intrinsic(Intrinsic::smax, b.getInt64Ty(), {x, y});
    else if (op == "avrg") {
      // Ties round away from zero, as GPUs compute it (an H200 gives
      // vavrg2.s32.s32.s32(0xffffffff, 0) = 0xffffffff).
      Value *pairSum = b.CreateAdd(x, y);
      Value *up = b.CreateZExt(b.CreateICmpSGE(pairSum, b.getInt64(0)),
                               b.getInt64Ty());
      value = b.CreateAShr(b.CreateAdd(pairSum, up), 1);
    }
    else {
      // Both operands are exact in 64 bits: compare them as signed.
      PtxType signedType;
      signedType.kind = PtxType::Signed;
      signedType.bits = 64;
      Value *holds = compare(comparison, x, y, signedType);
      if (!holds)
        return false;
      value = b.CreateZExt(holds, b.getInt64Ty());
    }
    if (statement.has("sat"))
      value = clampToRange(value, laneBits, resultSigned);
    if (accumulate) {
      sum = b.CreateAdd(sum, value);
      continue;
    }
    Value *bitsValue = b.CreateAnd(value, b.getInt64((1ull << laneBits) - 1));
    packed = b.CreateOr(packed, b.CreateShl(bitsValue, i * laneBits));
  }
  return write(ops[0], b.CreateTrunc(accumulate ? sum : packed, b.getInt32Ty()));
}

//===- Memory -------------------------------------------------------------===//

/// The memory ordering of ld/st/atom: `.relaxed` and unqualified atomics
/// are monotonic; `.volatile` is reported separately.
static AtomicOrdering orderingOf(const PtxStatement &statement,
                                 AtomicOrdering otherwise) {
  if (statement.has("acquire"))
    return AtomicOrdering::Acquire;
  if (statement.has("release"))
    return AtomicOrdering::Release;
  if (statement.has("acq_rel"))
    return AtomicOrdering::AcquireRelease;
  if (statement.has("sc"))
    return AtomicOrdering::SequentiallyConsistent;
  if (statement.has("relaxed"))
    return AtomicOrdering::Monotonic;
  return otherwise;
}

/// The `.v2`/`.v4` count of a vector access, or 1.
static unsigned vectorCountOf(const PtxStatement &statement) {
  if (statement.has("v2"))
    return 2;
  if (statement.has("v4"))
    return 4;
  if (statement.has("v8"))
    return 8;
  return 1;
}

/// Cache operators (.ca, .cg, .cs, .lu, .cv, .nc, .wb, .wt, .L2::...) only
/// steer the GPU's caches: on the CPU all are plain accesses, except that
/// .cv ("fetch again") and .volatile must not be cached in registers.
static bool isVolatileAccess(const PtxStatement &statement) {
  return statement.has("volatile") || statement.has("cv") ||
         statement.has("mmio");
}

/// The integer type of an atomic vector access of `count` elements of
/// `type`, or null where no CPU has atomic accesses that wide. PTX makes a
/// `.relaxed`/`.acquire`/`.release` vector access single-copy atomic as a
/// whole (CUB's decoupled look-back relies on it to read a tile's status and
/// value together), so the elements are one integer access.
static IntegerType *atomicVectorWord(LLVMContext &context,
                                     const PtxType &type, unsigned count) {
  unsigned bits = type.bits * count;
  if (bits > 128 || !isPowerOf2_32(bits))
    return nullptr;
  return IntegerType::get(context, bits);
}

/// ld{.relaxed,.acquire}.v2/.v4: one atomic load of the whole vector (its
/// address is aligned to the vector's size, as PTX requires), split into
/// the destination registers, lowest element first.
bool PTXTranslator::translateAtomicVectorLoad(const PtxStatement &statement,
                                              const PtxType &type,
                                              Type *element, unsigned count,
                                              AtomicOrdering ordering) {
  IntegerType *word = atomicVectorWord(context, type, count);
  Value *pointer = address(statement.operands[1], 0, inSharedSpace(statement));
  if (!word || !pointer)
    return false;
  LoadInst *load =
      b.CreateAlignedLoad(word, pointer, Align(word->getBitWidth() / 8));
  load->setAtomic(ordering);
  load->setVolatile(isVolatileAccess(statement));
  IntegerType *elementBits = b.getIntNTy(type.bits);
  for (unsigned i = 0; i < count; ++i) {
    Value *bitsValue =
        b.CreateTrunc(b.CreateLShr(load, i * type.bits), elementBits);
    if (!write(statement.operands[0].elements[i],
               b.CreateBitCast(bitsValue, element), type.isSigned()))
      return false;
  }
  return true;
}

/// st{.relaxed,.release}.v2/.v4: the source registers packed (lowest
/// first) into one atomic store of the whole vector.
bool PTXTranslator::translateAtomicVectorStore(const PtxStatement &statement,
                                               const PtxType &type,
                                               Type *element, unsigned count,
                                               AtomicOrdering ordering) {
  IntegerType *word = atomicVectorWord(context, type, count);
  Value *pointer = address(statement.operands[0], 0, inSharedSpace(statement));
  if (!word || !pointer)
    return false;
  SmallVector<Value *, 4> elements;
  for (const PtxOperand &source : statement.operands[1].elements) {
    Value *value = read(source, element);
    if (!value)
      return false;
    elements.push_back(value);
  }
  StoreInst *store = b.CreateAlignedStore(packLanes(elements), pointer,
                                          Align(word->getBitWidth() / 8));
  store->setAtomic(ordering);
  store->setVolatile(isVolatileAccess(statement));
  return true;
}

bool PTXTranslator::translateLoad(const PtxStatement &statement) {
  SmallVector<PtxType, 3> types = typesOf(statement);
  const auto &ops = statement.operands;
  if (types.size() != 1 || ops.size() != 2 || types[0].lanes != 1)
    return false;
  const PtxType &type = types[0];
  unsigned count = vectorCountOf(statement);
  AtomicOrdering ordering = orderingOf(statement, AtomicOrdering::NotAtomic);
  if (count > 1 && (ops[0].kind != PtxOperand::Vector ||
                    ops[0].elements.size() != count))
    return false;
  Type *element = type.elementType(context);
  if (count > 1 && ordering != AtomicOrdering::NotAtomic)
    return translateAtomicVectorLoad(statement, type, element, count,
                                     ordering);
  unsigned size = type.bits / 8;
  for (unsigned i = 0; i < count; ++i) {
    Value *pointer = address(ops[1], i * size, inSharedSpace(statement));
    if (!pointer)
      return false;
    LoadInst *load = b.CreateAlignedLoad(element, pointer, Align(size));
    load->setVolatile(isVolatileAccess(statement));
    if (ordering != AtomicOrdering::NotAtomic)
      load->setAtomic(ordering);
    const PtxOperand &destination = count > 1 ? ops[0].elements[i] : ops[0];
    if (!write(destination, load, type.isSigned()))
      return false;
  }
  if (ordering == AtomicOrdering::Acquire &&
      (statement.has("gpu") || statement.has("sys")))
    pollAfterAcquire();
  return true;
}

/// A load that acquires at GPU or system scope is how one block waits for
/// another (cooperative groups' grid barrier polls one in a loop). Where a
/// cooperative launch runs more blocks than there are cores, a waiting
/// block's thread must give its core to the blocks it waits for: the
/// runtime's poll yields then, and does nothing otherwise.
void PTXTranslator::pollAfterAcquire() {
  FunctionCallee callee =
      runtimeFunction("__respec_acquire_poll", b.getVoidTy(), {}, false);
  if (auto *declared = dyn_cast<Function>(callee.getCallee())) {
    declared->setOnlyAccessesInaccessibleMemory();
    declared->setWillReturn();
  }
  b.CreateCall(callee);
}

bool PTXTranslator::translateStore(const PtxStatement &statement) {
  SmallVector<PtxType, 3> types = typesOf(statement);
  const auto &ops = statement.operands;
  if (types.size() != 1 || ops.size() != 2 || types[0].lanes != 1)
    return false;
  const PtxType &type = types[0];
  unsigned count = vectorCountOf(statement);
  AtomicOrdering ordering = orderingOf(statement, AtomicOrdering::NotAtomic);
  if (count > 1 && (ops[1].kind != PtxOperand::Vector ||
                    ops[1].elements.size() != count))
    return false;
  Type *element = type.elementType(context);
  if (count > 1 && ordering != AtomicOrdering::NotAtomic)
    return translateAtomicVectorStore(statement, type, element, count,
                                      ordering);
  unsigned size = type.bits / 8;
  for (unsigned i = 0; i < count; ++i) {
    Value *pointer = address(ops[0], i * size, inSharedSpace(statement));
    Value *value = read(count > 1 ? ops[1].elements[i] : ops[1], element);
    if (!pointer || !value)
      return false;
    StoreInst *store = b.CreateAlignedStore(value, pointer, Align(size));
    store->setVolatile(isVolatileAccess(statement));
    if (ordering != AtomicOrdering::NotAtomic)
      store->setAtomic(ordering);
  }
  return true;
}

/// A compare-and-swap loop that replaces the value at `pointer` by
/// `update(old)`; returns the old value.
Value *PTXTranslator::atomicUpdateLoop(Value *pointer, Type *type,
                                       AtomicOrdering ordering,
                                       function_ref<Value *(Value *)> update) {
  LoadInst *initial = b.CreateAlignedLoad(
      type, pointer, Align(type->getPrimitiveSizeInBits() / 8));
  initial->setAtomic(AtomicOrdering::Monotonic);
  BasicBlock *before = b.GetInsertBlock();
  BasicBlock *loop = BasicBlock::Create(context, "ptx.atomic", &function);
  BasicBlock *done = BasicBlock::Create(context, "ptx.atomic.done", &function);
  b.CreateBr(loop);
  b.SetInsertPoint(loop);
  PHINode *old = b.CreatePHI(type, 2);
  old->addIncoming(initial, before);
  Value *replacement = update(old);
  if (!replacement)
    return nullptr;
  AtomicOrdering failureOrdering =
      AtomicCmpXchgInst::getStrongestFailureOrdering(ordering);
  Value *pair = b.CreateAtomicCmpXchg(pointer, old, replacement, MaybeAlign(),
                                      ordering, failureOrdering);
  Value *seen = b.CreateExtractValue(pair, 0);
  old->addIncoming(seen, b.GetInsertBlock());
  b.CreateCondBr(b.CreateExtractValue(pair, 1), done, loop);
  b.SetInsertPoint(done);
  return old;
}

/// atom/red{.sem}{.scope}{.space}.op.type d, [a], b{, c}. Integer and
/// single/double-precision operations are atomicrmw; half-precision adds
/// (also per lane of x2 types) are compare-and-swap loops that round like
/// the hardware.
bool PTXTranslator::translateAtomic(const PtxStatement &statement) {
  SmallVector<PtxType, 3> types = typesOf(statement);
  const auto &ops = statement.operands;
  bool reduction = statement.opcode == "red";
  if (types.size() != 1 || vectorCountOf(statement) != 1)
    return false;
  const PtxType &type = types[0];
  bool cas = statement.has("cas");
  unsigned first = reduction ? 0 : 1;
  if (ops.size() != first + (cas ? 3 : 2))
    return false;
  AtomicOrdering ordering = orderingOf(statement, AtomicOrdering::Monotonic);
  Value *pointer = address(ops[first], 0, inSharedSpace(statement));
  if (!pointer)
    return false;
  Type *integer = b.getIntNTy(type.totalBits());
  Type *element = type.lanes == 1 ? type.elementType(context) : integer;
  Value *operand = read(ops[first + 1], element);
  if (!operand)
    return false;
  Value *old;
  if (cas) {
    Value *replacement = read(ops[first + 2], element);
    if (!replacement)
      return false;
    operand = coerce(operand, integer);
    replacement = coerce(replacement, integer);
    Value *pair = b.CreateAtomicCmpXchg(
        pointer, operand, replacement, MaybeAlign(), ordering,
        AtomicCmpXchgInst::getStrongestFailureOrdering(ordering));
    old = b.CreateExtractValue(pair, 0);
  } else if (type.isFloat() && (type.bits == 16 || type.lanes == 2)) {
    if (!statement.has("add"))
      return false;
    PtxType laneType = type;
    Type *laneElement = type.elementType(context);
    old = atomicUpdateLoop(pointer, integer, ordering, [&](Value *current) {
      Value *sum = b.getIntN(type.totalBits(), 0);
      Value *addend = coerce(operand, integer);
      for (unsigned i = 0; i < laneType.lanes; ++i) {
        auto laneOf = [&](Value *word) {
          return b.CreateBitCast(
              b.CreateTrunc(b.CreateLShr(word, i * 16), b.getInt16Ty()),
              laneElement);
        };
        Value *lane = floatArithmetic("add", {laneOf(current), laneOf(addend)},
                                      laneElement, Rounding::Nearest);
        sum = b.CreateOr(sum, b.CreateShl(b.CreateZExt(toBits(lane), integer),
                                          i * 16));
      }
      return sum;
    });
  } else {
    bool isSigned = type.isSigned();
    std::optional<AtomicRMWInst::BinOp> op =
        StringSwitch<std::optional<AtomicRMWInst::BinOp>>(
            statement.has("add")    ? "add"
            : statement.has("min")  ? "min"
            : statement.has("max")  ? "max"
            : statement.has("and")  ? "and"
            : statement.has("or")   ? "or"
            : statement.has("xor")  ? "xor"
            : statement.has("exch") ? "exch"
            : statement.has("inc")  ? "inc"
            : statement.has("dec")  ? "dec"
                                    : "")
            .Case("add", type.isFloat() ? AtomicRMWInst::FAdd
                                        : AtomicRMWInst::Add)
            .Case("min", type.isFloat() ? AtomicRMWInst::FMin
                         : isSigned     ? AtomicRMWInst::Min
                                        : AtomicRMWInst::UMin)
            .Case("max", type.isFloat() ? AtomicRMWInst::FMax
                         : isSigned     ? AtomicRMWInst::Max
                                        : AtomicRMWInst::UMax)
            .Case("and", AtomicRMWInst::And)
            .Case("or", AtomicRMWInst::Or)
            .Case("xor", AtomicRMWInst::Xor)
            .Case("exch", AtomicRMWInst::Xchg)
            // PTX inc/dec wrap at the operand (inc: old >= b ? 0 : old+1).
            .Case("inc", AtomicRMWInst::UIncWrap)
            .Case("dec", AtomicRMWInst::UDecWrap)
            .Default(std::nullopt);
    if (!op)
      return false;
    old = b.CreateAtomicRMW(*op, pointer, operand, MaybeAlign(), ordering);
  }
  if (!old)
    return false;
  return reduction || write(ops[0], old, type.isSigned());
}

/// fence/membar: a CPU fence of the same strength; proxy fences order
/// accesses of the GPU's other memory paths, which the CPU does not have.
bool PTXTranslator::translateFence(const PtxStatement &statement) {
  if (statement.has("proxy"))
    return true;
  bool acquireRelease = statement.has("acq_rel");
  b.CreateFence(acquireRelease ? AtomicOrdering::AcquireRelease
                               : AtomicOrdering::SequentiallyConsistent);
  return true;
}

/// bar.sync 0 / barrier.sync 0 (the whole block) and bar.warp.sync mask.
bool PTXTranslator::translateBarrier(const PtxStatement &statement) {
  const auto &ops = statement.operands;
  if (statement.has("warp")) {
    Value *mask = ops.size() == 1 ? read(ops[0], b.getInt32Ty()) : nullptr;
    if (!mask)
      return false;
    callNVVM(Intrinsic::nvvm_bar_warp_sync, {mask});
    return true;
  }
  // Thread counts, named barriers other than 0 and arrive-only forms
  // synchronize something other than the whole block.
  if (ops.size() != 1 || ops[0].kind != PtxOperand::Integer ||
      ops[0].integer != 0 || statement.has("arrive") || statement.has("red"))
    return false;
  if (!statement.has("sync") && !(statement.opcode == "barrier" &&
                                  statement.modifiers.empty()))
    return false;
  callNVVM(Intrinsic::nvvm_barrier_cta_sync_aligned_all, {b.getInt32(0)});
  return true;
}

//===- Warp-level ---------------------------------------------------------===//

/// shfl{.sync}.mode.b32 d[|p], a, b, c{, mask}: the NVVM shuffle; the
/// predicate (whether the source lane was inside the segment) follows from
/// the lane id as the PTX ISA defines it.
bool PTXTranslator::translateShuffle(const PtxStatement &statement) {
  const auto &ops = statement.operands;
  bool sync = statement.has("sync");
  if (ops.size() != (sync ? 5u : 4u) || !statement.has("b32") ||
      ops[0].kind != PtxOperand::Register)
    return false;
  Intrinsic::ID id = statement.has("up")     ? Intrinsic::nvvm_shfl_sync_up_i32
                     : statement.has("down") ? Intrinsic::nvvm_shfl_sync_down_i32
                     : statement.has("bfly") ? Intrinsic::nvvm_shfl_sync_bfly_i32
                     : statement.has("idx")  ? Intrinsic::nvvm_shfl_sync_idx_i32
                                             : Intrinsic::not_intrinsic;
  if (id == Intrinsic::not_intrinsic)
    return false;
  Value *value = read(ops[1], b.getInt32Ty());
  Value *lane = read(ops[2], b.getInt32Ty());
  Value *clamp = read(ops[3], b.getInt32Ty());
  Value *mask = sync ? read(ops[4], b.getInt32Ty()) : b.getInt32(-1);
  if (!value || !lane || !clamp || !mask)
    return false;
  Value *result = callNVVM(id, {mask, value, lane, clamp});
  if (!writeRegister(ops[0].name, result))
    return false;
  if (ops[0].pairName.empty())
    return true;
  Value *self = callNVVM(Intrinsic::nvvm_read_ptx_sreg_laneid, {});
  Value *segment = b.CreateAnd(b.CreateLShr(clamp, 8), 0x1f);
  Value *minLane = b.CreateAnd(self, segment);
  Value *maxLane = b.CreateOr(minLane, b.CreateAnd(b.CreateAnd(clamp, 0x1f),
                                                   b.CreateNot(segment)));
  Value *valid;
  if (statement.has("up")) {
    valid = b.CreateICmpSGE(b.CreateSub(self, lane), maxLane);
  } else {
    Value *source = statement.has("down") ? b.CreateAdd(self, lane)
                    : statement.has("bfly")
                        ? b.CreateXor(self, lane)
                        : b.CreateOr(minLane, b.CreateAnd(lane, b.CreateNot(segment)));
    valid = b.CreateICmpSLE(source, maxLane);
  }
  return writeRegister(ops[0].pairName, valid);
}

/// vote{.sync}.{all,any,uni}.pred d, {!}a{, mask}; vote.ballot.b32.
bool PTXTranslator::translateVote(const PtxStatement &statement) {
  const auto &ops = statement.operands;
  bool sync = statement.has("sync");
  if (ops.size() != (sync ? 3u : 2u))
    return false;
  Value *predicate = read(ops[1], b.getInt1Ty());
  Value *mask = sync ? read(ops[2], b.getInt32Ty()) : b.getInt32(-1);
  if (!predicate || !mask)
    return false;
  Intrinsic::ID id = statement.has("ballot") ? Intrinsic::nvvm_vote_ballot_sync
                     : statement.has("all")  ? Intrinsic::nvvm_vote_all_sync
                     : statement.has("any")  ? Intrinsic::nvvm_vote_any_sync
                     : statement.has("uni")  ? Intrinsic::nvvm_vote_uni_sync
                                             : Intrinsic::not_intrinsic;
  if (id == Intrinsic::not_intrinsic)
    return false;
  return write(ops[0], callNVVM(id, {mask, predicate}));
}

/// match.{any,all}.sync.b32/b64 d[|p], a, mask.
bool PTXTranslator::translateMatch(const PtxStatement &statement) {
  const auto &ops = statement.operands;
  bool wide = statement.has("b64");
  if (ops.size() != 3 || ops[0].kind != PtxOperand::Register ||
      (!wide && !statement.has("b32")))
    return false;
  Value *value = read(ops[1], wide ? b.getInt64Ty() : b.getInt32Ty());
  Value *mask = read(ops[2], b.getInt32Ty());
  if (!value || !mask)
    return false;
  if (statement.has("any")) {
    if (!ops[0].pairName.empty())
      return false;
    return writeRegister(
        ops[0].name,
        callNVVM(wide ? Intrinsic::nvvm_match_any_sync_i64
                      : Intrinsic::nvvm_match_any_sync_i32,
                 {mask, value}));
  }
  if (!statement.has("all"))
    return false;
  Value *pair = callNVVM(wide ? Intrinsic::nvvm_match_all_sync_i64p
                              : Intrinsic::nvvm_match_all_sync_i32p,
                         {mask, value});
  if (!writeRegister(ops[0].name, b.CreateExtractValue(pair, 0)))
    return false;
  return ops[0].pairName.empty() ||
         writeRegister(ops[0].pairName, b.CreateExtractValue(pair, 1));
}

/// redux.sync.op.type d, a, mask (integer operations).
bool PTXTranslator::translateRedux(const PtxStatement &statement) {
  SmallVector<PtxType, 3> types = typesOf(statement);
  const auto &ops = statement.operands;
  if (types.size() != 1 || types[0].isFloat() || ops.size() != 3)
    return false;
  bool isSigned = types[0].isSigned();
  Intrinsic::ID id =
      statement.has("add")   ? Intrinsic::nvvm_redux_sync_add
      : statement.has("min") ? (isSigned ? Intrinsic::nvvm_redux_sync_min
                                         : Intrinsic::nvvm_redux_sync_umin)
      : statement.has("max") ? (isSigned ? Intrinsic::nvvm_redux_sync_max
                                         : Intrinsic::nvvm_redux_sync_umax)
      : statement.has("and") ? Intrinsic::nvvm_redux_sync_and
      : statement.has("or")  ? Intrinsic::nvvm_redux_sync_or
      : statement.has("xor") ? Intrinsic::nvvm_redux_sync_xor
                             : Intrinsic::not_intrinsic;
  Value *value = read(ops[1], b.getInt32Ty());
  Value *mask = read(ops[2], b.getInt32Ty());
  if (id == Intrinsic::not_intrinsic || !value || !mask)
    return false;
  return write(ops[0], callNVVM(id, {value, mask}));
}

bool PTXTranslator::translateActiveMask(const PtxStatement &statement) {
  if (statement.operands.size() != 1)
    return false;
  return write(statement.operands[0],
               callNVVM(Intrinsic::nvvm_activemask, {}));
}

/// nanosleep: a CPU thread that runs many GPU threads gains nothing from
/// sleeping; the caller's loop polls again.
bool PTXTranslator::translateNoOp(const PtxStatement &statement) {
  return true;
}

/// bmsk.{clamp,wrap}.b32 d, a, b: b one-bits starting at bit a. .wrap takes
/// a and b modulo 32, .clamp limits them to 32; bits past bit 31 are cut.
bool PTXTranslator::translateBitMask(const PtxStatement &statement) {
  const auto &ops = statement.operands;
  bool wrap = statement.has("wrap");
  if (ops.size() != 3 || wrap == statement.has("clamp"))
    return false;
  Value *start = read(ops[1], b.getInt32Ty());
  Value *width = read(ops[2], b.getInt32Ty());
  if (!start || !width)
    return false;
  auto limit = [&](Value *v) {
    return wrap ? b.CreateAnd(v, 31)
                : b.CreateIntrinsic(Intrinsic::umin, {b.getInt32Ty()},
                                    {v, b.getInt32(32)});
  };
  // In 64 bits, (2^width - 1) << start cannot overflow for width,
  // start <= 32; the low 32 bits are the mask.
  Value *width64 = b.CreateZExt(limit(width), b.getInt64Ty());
  Value *start64 = b.CreateZExt(limit(start), b.getInt64Ty());
  Value *ones = b.CreateSub(b.CreateShl(b.getInt64(1), width64), b.getInt64(1));
  Value *mask = b.CreateTrunc(b.CreateShl(ones, start64), b.getInt32Ty());
  return write(ops[0], mask);
}

/// exit: the thread ends. A call of __respec_thread_exit marks the spot;
/// once device functions are inlined into their kernels, the kernel
/// returns there (lowerThreadExits in DeviceModulePreparation).
bool PTXTranslator::translateExit(const PtxStatement &statement) {
  if (!statement.operands.empty())
    return false;
  Module *module = b.GetInsertBlock()->getModule();
  FunctionCallee marker = module->getOrInsertFunction(
      "__respec_thread_exit", FunctionType::get(b.getVoidTy(), false));
  b.CreateCall(marker);
  return true;
}

/// cvta{.to}.global: generic and global addresses are the same on the CPU.
/// cvta.to.shared gives a generic address's offset into the block's shared
/// memory, cvta.shared the generic address of such an offset (32 or 64
/// bits). Local and constant windows are not modelled.
bool PTXTranslator::translateCvta(const PtxStatement &statement) {
  const auto &ops = statement.operands;
  if (ops.size() != 2)
    return false;
  if (statement.has("global")) {
    Value *value = read(ops[1], b.getInt64Ty());
    return value && write(ops[0], value);
  }
  if (!inSharedSpace(statement))
    return false;
  bool is32 = statement.has("u32");
  if (!is32 && !statement.has("u64"))
    return false;
  Type *width = is32 ? b.getInt32Ty() : b.getInt64Ty();
  Value *window = b.CreatePtrToInt(sharedWindow(), b.getInt64Ty());
  Value *value = read(ops[1], width);
  if (!value)
    return false;
  Value *result =
      statement.has("to")
          ? b.CreateSub(b.CreateZExt(value, b.getInt64Ty()), window)
          : b.CreateAdd(window, b.CreateZExt(value, b.getInt64Ty()));
  return write(ops[0], b.CreateZExtOrTrunc(result, width));
}

/// cp.async.{ca,cg}.shared{::cta}.global [dst], [src], cp-size{, src-size |
/// , ignore-src}{, cache-policy}: a thread's asynchronous copy of 4, 8 or 16
/// bytes into shared memory, the bytes past src-size (all of them where the
/// ignore-src predicate holds) zero. The CPU copies at once, so the copy is
/// complete before anything the thread does next, and cp.async.commit_group,
/// cp.async.wait_group and cp.async.wait_all have nothing left to wait for;
/// a barrier after the wait, as CUDA requires, shows the data to the block.
/// The completion mechanism through an mbarrier and the bulk copies are not
/// translated.
bool PTXTranslator::translateAsyncCopy(const PtxStatement &statement) {
  if (!statement.has("async"))
    return false;
  if (statement.has("commit_group") || statement.has("wait_group") ||
      statement.has("wait_all"))
    return statement.modifiers.size() == 2;
  if (statement.has("mbarrier") || statement.has("bulk") ||
      !inSharedSpace(statement) || !statement.has("global"))
    return false;
  // After dst, src and cp-size: src-size or the ignore-src predicate, then
  // the L2 cache policy (a hint) with `.L2::cache_hint`.
  const auto &ops = statement.operands;
  size_t policies = statement.has("L2::cache_hint") ? 1 : 0;
  if (ops.size() < 3 + policies || ops.size() > 4 + policies)
    return false;
  std::optional<int64_t> copySize = immediate(ops[2]);
  if (!copySize || (*copySize != 4 && *copySize != 8 && *copySize != 16))
    return false;
  Value *destination = address(ops[0], 0, /*sharedWindow=*/true);
  Value *source = address(ops[1]);
  if (!destination || !source)
    return false;
  Value *sourceSize = b.getInt64(*copySize);
  if (ops.size() == 4 + policies) {
    RegisterValue *reg =
        ops[3].kind == PtxOperand::Register ? lookup(ops[3].name) : nullptr;
    bool predicate = reg && reg->bits == 1;
    Value *operand = read(ops[3], predicate ? b.getInt1Ty() : b.getInt64Ty());
    if (!operand)
      return false;
    sourceSize = predicate
                     ? b.CreateSelect(operand, b.getInt64(0), sourceSize)
                     : b.CreateSelect(b.CreateICmpULT(operand, sourceSize),
                                      operand, sourceSize);
  }
  Align alignment(*copySize);
  if (auto *constant = dyn_cast<ConstantInt>(sourceSize);
      constant && constant->getZExtValue() == uint64_t(*copySize)) {
    b.CreateMemCpy(destination, alignment, source, alignment, *copySize);
    return true;
  }
  b.CreateMemCpy(destination, alignment, source, alignment, sourceSize);
  b.CreateMemSet(b.CreateGEP(b.getInt8Ty(), destination, sourceSize),
                 b.getInt8(0), b.CreateSub(b.getInt64(*copySize), sourceSize),
                 MaybeAlign(1));
  return true;
}

//===- Textures and surfaces ----------------------------------------------===//
//
// Texture and surface objects are handles the CPU runtime resolves
// (runtime/cpu/Textures.cpp): each access becomes a call of one of its
// entry points (abi.h), which sample or address the object's memory.

/// A declaration of a runtime entry point that generated code calls.
FunctionCallee PTXTranslator::runtimeFunction(StringRef name, Type *result,
                                              ArrayRef<Type *> parameters,
                                              bool readOnly) {
  Module *module = function.getParent();
  FunctionCallee callee = module->getOrInsertFunction(
      name, FunctionType::get(result, parameters, false));
  if (auto *declared = dyn_cast<Function>(callee.getCallee())) {
    declared->addFnAttr(Attribute::NoUnwind);
    if (readOnly)
      declared->setOnlyReadsMemory();
  }
  return callee;
}

/// `[handle, {c, ...}]` of a texture or surface access, its coordinates laid
/// out as the geometry modifier says: `{x}`, `{x, y}`, `{x, y, z, _}`,
/// `{layer, x}` (a1d), `{layer, x, y, _}` (a2d). Absent coordinates are 0.
bool PTXTranslator::readTexelAddress(const PtxStatement &statement,
                                     const PtxOperand &operand,
                                     Type *coordinateType,
                                     TexelAddress &address) {
  if (operand.kind != PtxOperand::Tuple || operand.elements.size() != 2 ||
      operand.elements[1].kind != PtxOperand::Vector)
    return false;
  unsigned dims = 0;
  bool layered = false;
  for (auto [name, count, isLayered] :
       {std::tuple{"1d", 1u, false}, std::tuple{"2d", 2u, false},
        std::tuple{"3d", 3u, false}, std::tuple{"a1d", 1u, true},
        std::tuple{"a2d", 2u, true}})
    if (statement.has(name)) {
      dims = count;
      layered = isLayered;
    }
  const auto &coordinates = operand.elements[1].elements;
  unsigned first = layered ? 1 : 0;
  if (dims == 0 || coordinates.size() < first + dims)
    return false;
  address.handle = read(operand.elements[0], b.getInt64Ty());
  address.layer =
      layered ? read(coordinates[0], b.getInt32Ty()) : b.getInt32(0);
  for (unsigned d = 0; d < 3; ++d)
    address.coordinates[d] = d < dims
                                 ? read(coordinates[first + d], coordinateType)
                                 : Constant::getNullValue(coordinateType);
  return address.handle && address.layer &&
         llvm::all_of(address.coordinates, [](Value *v) { return v; });
}

/// tex{.level,.grad}.geometry.v4.dtype.ctype d, [t, {c}]{, lod | , dx, dy}:
/// float coordinates sample with the texture's filter and address modes,
/// integer ones read a texel. Mipmapped textures are not supported, so the
/// level of detail and the gradients select the one level there is.
bool PTXTranslator::translateTexture(const PtxStatement &statement) {
  SmallVector<PtxType, 3> types = typesOf(statement);
  const auto &ops = statement.operands;
  size_t extra = statement.has("level") ? 1 : statement.has("grad") ? 2 : 0;
  if (!statement.has("v4") || types.size() != 2 || ops.size() != 2 + extra ||
      ops[0].kind != PtxOperand::Vector || ops[0].elements.size() != 4)
    return false;
  const PtxType &result = types[0];
  const PtxType &coordinates = types[1];
  if (result.bits != 32 || coordinates.bits != 32 ||
      !(coordinates.isFloat() || coordinates.isSigned()))
    return false;
  bool integer = coordinates.isSigned();
  Type *coordinateType = integer ? b.getInt32Ty() : b.getFloatTy();
  TexelAddress address;
  if (!readTexelAddress(statement, ops[1], coordinateType, address))
    return false;
  Type *texel = FixedVectorType::get(b.getInt32Ty(), 4);
  FunctionCallee callee = runtimeFunction(
      integer ? "__respec_tex_fetch" : "__respec_tex_sample", texel,
      {b.getInt64Ty(), coordinateType, coordinateType, coordinateType,
       b.getInt32Ty()},
      /*readOnly=*/true);
  auto callRuntime = [&]() -> Value * {
    return b.CreateCall(callee, {address.handle, address.coordinates[0],
                                 address.coordinates[1],
                                 address.coordinates[2], address.layer});
  };
  SmallVector<Value *, 4> lanes;
  if (integer && statement.has("1d")) {
    fetchLinearWords(address.handle, address.coordinates[0], callRuntime,
                     lanes);
  } else if (!integer && result.isFloat()) {
    unsigned dims = statement.has("3d")                             ? 3
                    : statement.has("2d") || statement.has("a2d") ? 2
                                                                    : 1;
    sampleSingleFloat(dims, statement.has("a1d") || statement.has("a2d"),
                      address, callRuntime, lanes);
  } else {
    Value *texel = callRuntime();
    for (unsigned i = 0; i < 4; ++i)
      lanes.push_back(b.CreateExtractElement(texel, i));
  }
  for (unsigned i = 0; i < 4; ++i) {
    Value *lane = lanes[i];
    if (result.isFloat())
      lane = b.CreateBitCast(lane, b.getFloatTy());
    if (!write(ops[0].elements[i], lane))
      return false;
  }
  return true;
}

/// The value of an immediate operand: a literal, or an asm operand bound to
/// a constant ("n").
std::optional<int64_t> PTXTranslator::immediate(const PtxOperand &operand) {
  if (operand.kind == PtxOperand::Integer)
    return operand.integer;
  RegisterValue *reg =
      operand.kind == PtxOperand::Register ? lookup(operand.name) : nullptr;
  if (auto *constant =
          reg ? dyn_cast_or_null<ConstantInt>(reg->value) : nullptr)
    return constant->getSExtValue();
  return std::nullopt;
}

/// The start of the block's shared memory, from which shared-window
/// addresses count.
Value *PTXTranslator::sharedWindow() {
  return b.CreateCall(sharedWindowFunction(*function.getParent()));
}

/// Half of the grid workspace's address (abi.h's __respec_grid_workspace),
/// which cooperative groups read from %envreg1 (high) and %envreg2 (low) to
/// find their grid barrier. The address is fixed for a launch.
Value *PTXTranslator::gridWorkspaceHalf(bool high) {
  FunctionCallee callee =
      runtimeFunction("__respec_grid_workspace", b.getPtrTy(), {}, false);
  if (auto *declared = dyn_cast<Function>(callee.getCallee())) {
    declared->setDoesNotAccessMemory();
    declared->setWillReturn();
  }
  Value *address = b.CreatePtrToInt(b.CreateCall(callee), b.getInt64Ty());
  if (high)
    address = b.CreateLShr(address, 32);
  return b.CreateTrunc(address, b.getInt32Ty());
}

/// The header of the texture `handle` names (abi.h). The runtime answers
/// for any handle, live or not, without side effects, so the call is
/// speculatable: LLVM hoists it, and the loads of the header's fields, out
/// of thread and block loops, also out of branches that sample.
Value *PTXTranslator::textureHeader(Value *handle) {
  FunctionCallee callee = runtimeFunction(
      "__respec_tex_header", b.getPtrTy(), {b.getInt64Ty()}, false);
  if (auto *declared = dyn_cast<Function>(callee.getCallee())) {
    declared->setDoesNotAccessMemory();
    declared->setWillReturn();
    declared->addFnAttr(Attribute::Speculatable);
    declared->addRetAttr(Attribute::NonNull);
    declared->addRetAttr(Attribute::NoUndef);
    declared->addRetAttr(Attribute::getWithDereferenceableBytes(
        b.getContext(), sizeof(respec_texture_header)));
  }
  return b.CreateCall(callee, {handle});
}

/// A field of a texture's header (abi.h), which does not change while
/// kernels run.
Value *PTXTranslator::textureField(Value *header, Type *type, size_t offset) {
  // Alignment 1: the header's alignment does not survive the way through
  // MLIR, and LLVM speculates (hoists) only loads it knows to be aligned.
  LoadInst *load = b.CreateAlignedLoad(
      type, b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), header, offset),
      Align(1));
  load->setMetadata(LLVMContext::MD_invariant_load,
                    MDNode::get(b.getContext(), {}));
  return load;
}

/// tex.{1d,2d,3d,a1d,a2d} at float coordinates of a texture the runtime
/// marks for inline sampling (single-channel 32-bit float texels, clamp or
/// border addressing): point or linear filtering computed here, in the
/// same float operations, in the same order, as the runtime's samplers
/// (runtime/cpu/Textures.cpp), which take every other texture.
void PTXTranslator::sampleSingleFloat(
    unsigned dims, bool layered, const TexelAddress &address,
    function_ref<Value *()> sampleThroughRuntime,
    SmallVectorImpl<Value *> &lanes) {
  Type *i32 = b.getInt32Ty();
  Type *i64 = b.getInt64Ty();
  Type *f32 = b.getFloatTy();
  LLVMContext &context = b.getContext();
  Value *header = textureHeader(address.handle);
  using Header = respec_texture_header;
  auto field = [&](Type *type, size_t offset) {
    return textureField(header, type, offset);
  };
  Value *kind = field(i32, offsetof(Header, inlineSampling));
  Value *inlineOk = b.CreateAnd(
      b.CreateICmpNE(kind, b.getInt32(0)),
      b.CreateICmpEQ(field(i32, offsetof(Header, dims)), b.getInt32(dims)));
  BasicBlock *setup = BasicBlock::Create(context, "tex.inline", &function);
  BasicBlock *point = BasicBlock::Create(context, "tex.point", &function);
  BasicBlock *linear = BasicBlock::Create(context, "tex.linear", &function);
  BasicBlock *slow = BasicBlock::Create(context, "tex.runtime", &function);
  BasicBlock *done = BasicBlock::Create(context, "tex.done", &function);
  b.CreateCondBr(inlineOk, setup, slow);

  b.SetInsertPoint(setup);
  Value *data = field(b.getPtrTy(), offsetof(Header, data));
  Value *slicePitch = field(i64, offsetof(Header, slicePitch));
  Value *pitch[3] = {b.getInt64(4), field(i64, offsetof(Header, rowPitch)),
                     slicePitch};
  Value *borderMask = field(i32, offsetof(Header, borderMask));
  Value *borderColor = field(f32, offsetof(Header, borderColor));
  Value *base = b.getInt64(0);
  if (layered) {
    Value *last =
        b.CreateSub(field(i32, offsetof(Header, layers)), b.getInt32(1));
    Value *layer = b.CreateIntrinsic(
        Intrinsic::smin, {i32},
        {b.CreateIntrinsic(Intrinsic::smax, {i32},
                           {address.layer, b.getInt32(0)}),
         last});
    base = b.CreateMul(b.CreateZExt(layer, i64), slicePitch);
  }
  Value *size[3], *u[3];
  for (unsigned d = 0; d < dims; ++d) {
    size[d] = b.CreateZExt(
        field(i32, offsetof(Header, size) + d * sizeof(int32_t)), i64);
    Value *scale = field(f32, offsetof(Header, scale) + d * sizeof(float));
    Value *coordinate = address.coordinates[d];
    Value *defined = b.CreateSelect(b.CreateFCmpUNO(coordinate, coordinate),
                                    ConstantFP::get(f32, 0.0), coordinate);
    u[d] = b.CreateFMul(defined, scale);
  }
  // The texel at integer position `index`, or the border color where a
  // dimension with the border mode is out of range; the load reads the
  // clamped position, always inside the texture.
  auto texelAt = [&](ArrayRef<Value *> index) -> Value * {
    Value *offset = base;
    Value *onBorder = b.getFalse();
    for (unsigned d = 0; d < dims; ++d) {
      Value *inRange = b.CreateICmpULT(index[d], size[d]);
      Value *clamped = b.CreateIntrinsic(
          Intrinsic::smin, {i64},
          {b.CreateIntrinsic(Intrinsic::smax, {i64}, {index[d], b.getInt64(0)}),
           b.CreateSub(size[d], b.getInt64(1))});
      offset = b.CreateAdd(offset, b.CreateMul(clamped, pitch[d]));
      Value *borderHere = b.CreateICmpNE(
          b.CreateAnd(borderMask, b.getInt32(1u << d)), b.getInt32(0));
      onBorder = b.CreateOr(onBorder, b.CreateAnd(borderHere,
                                                  b.CreateNot(inRange)));
    }
    Value *texel = b.CreateAlignedLoad(
        f32, b.CreateInBoundsGEP(b.getInt8Ty(), data, offset), Align(4));
    return b.CreateSelect(onBorder, borderColor, texel);
  };
  // floor, then int32 with saturation (NaN 0), widened.
  auto floorIndex = [&](Value *value) -> Value * {
    Value *floor = b.CreateUnaryIntrinsic(Intrinsic::floor, value);
    return b.CreateSExt(
        b.CreateIntrinsic(Intrinsic::fptosi_sat, {i32, f32}, {floor}), i64);
  };
  b.CreateCondBr(b.CreateICmpEQ(kind, b.getInt32(2)), linear, point);

  b.SetInsertPoint(point);
  SmallVector<Value *, 3> position;
  for (unsigned d = 0; d < dims; ++d)
    position.push_back(floorIndex(u[d]));
  Value *pointBits = b.CreateBitCast(texelAt(position), i32);
  BasicBlock *pointEnd = b.GetInsertBlock();
  b.CreateBr(done);

  b.SetInsertPoint(linear);
  Value *lower[3], *weight[3];
  for (unsigned d = 0; d < dims; ++d) {
    Value *below = b.CreateFSub(u[d], ConstantFP::get(f32, 0.5));
    Value *floor = b.CreateUnaryIntrinsic(Intrinsic::floor, below);
    lower[d] = floorIndex(below);
    // The fraction in 8 bits, as the texture units keep it.
    Value *scaled =
        b.CreateFMul(b.CreateFSub(below, floor), ConstantFP::get(f32, 256.0));
    weight[d] = b.CreateFMul(
        b.CreateUnaryIntrinsic(Intrinsic::floor,
                               b.CreateFAdd(scaled, ConstantFP::get(f32, 0.5))),
        ConstantFP::get(f32, 1.0 / 256.0));
  }
  Value *sum = ConstantFP::get(f32, 0.0);
  for (unsigned corner = 0; corner < (1u << dims); ++corner) {
    SmallVector<Value *, 3> index;
    Value *w = ConstantFP::get(f32, 1.0);
    for (unsigned d = 0; d < dims; ++d) {
      bool upper = corner & (1u << d);
      index.push_back(upper ? b.CreateAdd(lower[d], b.getInt64(1)) : lower[d]);
      w = b.CreateFMul(w, upper ? weight[d]
                                : b.CreateFSub(ConstantFP::get(f32, 1.0),
                                               weight[d]));
    }
    sum = b.CreateFAdd(sum, b.CreateFMul(w, texelAt(index)));
  }
  Value *linearBits = b.CreateBitCast(sum, i32);
  BasicBlock *linearEnd = b.GetInsertBlock();
  b.CreateBr(done);

  b.SetInsertPoint(slow);
  Value *sampled = sampleThroughRuntime();
  SmallVector<Value *, 4> called;
  for (unsigned c = 0; c < 4; ++c)
    called.push_back(b.CreateExtractElement(sampled, c));
  BasicBlock *slowEnd = b.GetInsertBlock();
  b.CreateBr(done);

  b.SetInsertPoint(done);
  // A single channel: the other lanes read 0, alpha 1.
  Value *inlineLanes[4] = {nullptr, b.getInt32(0), b.getInt32(0),
                           b.getInt32(0x3f800000u)};
  for (unsigned c = 0; c < 4; ++c) {
    PHINode *lane = b.CreatePHI(i32, 3);
    lane->addIncoming(c ? inlineLanes[c] : pointBits, pointEnd);
    lane->addIncoming(c ? inlineLanes[c] : linearBits, linearEnd);
    lane->addIncoming(called[c], slowEnd);
    lanes.push_back(lane);
  }
}

/// tex.1d with an integer coordinate (tex1Dfetch) of linear memory whose
/// texels are 32-bit channels read as stored: the texel's words are loaded
/// here, from the texture's header (abi.h); other textures go to the
/// runtime. The uniform test of the texture's kind comes first, so that
/// LLVM can unswitch thread loops on it, and texels out of range read 0
/// (as CUDA defines for linear memory) behind a per-thread test that the
/// vectorizer turns into masked loads. Each lane is a value of its own, so
/// that lanes the program does not use cost nothing.
void PTXTranslator::fetchLinearWords(
    Value *handle, Value *x, function_ref<Value *()> fetchThroughRuntime,
    SmallVectorImpl<Value *> &lanes) {
  Type *i32 = b.getInt32Ty();
  Type *i64 = b.getInt64Ty();
  Value *header = textureHeader(handle);
  LLVMContext &context = b.getContext();
  auto field = [&](Type *type, size_t offset) {
    return textureField(header, type, offset);
  };
  Value *linear = field(i32, offsetof(respec_texture_header, linearWords));
  BasicBlock *direct = BasicBlock::Create(context, "tex.words", &function);
  BasicBlock *inRange = BasicBlock::Create(context, "tex.load", &function);
  BasicBlock *slow = BasicBlock::Create(context, "tex.runtime", &function);
  BasicBlock *done = BasicBlock::Create(context, "tex.done", &function);
  b.CreateCondBr(b.CreateICmpNE(linear, b.getInt32(0)), direct, slow);

  b.SetInsertPoint(direct);
  Value *texels = field(i64, offsetof(respec_texture_header, texels));
  Value *channels = field(i32, offsetof(respec_texture_header, channels));
  Value *alpha = field(i32, offsetof(respec_texture_header, alpha));
  Value *index = b.CreateSExt(x, i64);
  b.CreateCondBr(b.CreateICmpULT(index, texels), inRange, done);

  b.SetInsertPoint(inRange);
  Value *data = field(b.getPtrTy(), offsetof(respec_texture_header, data));
  Value *texel = b.CreateInBoundsGEP(
      i32, data, b.CreateMul(index, b.CreateZExt(channels, i64)));
  Value *lastChannel = b.CreateSub(channels, b.getInt32(1));
  SmallVector<Value *, 4> loaded;
  for (unsigned c = 0; c < 4; ++c) {
    // Lane c reads channel min(c, last), inside the texel, and keeps it
    // only if the texture has that channel.
    Value *channel = b.CreateIntrinsic(Intrinsic::umin, {i32},
                                       {b.getInt32(c), lastChannel});
    Value *word = b.CreateAlignedLoad(
        i32, b.CreateInBoundsGEP(i32, texel, b.CreateZExt(channel, i64)),
        Align(4));
    Value *absent = c == 3 ? alpha : b.getInt32(0);
    loaded.push_back(b.CreateSelect(b.CreateICmpULT(b.getInt32(c), channels),
                                    word, absent));
  }
  b.CreateBr(done);

  b.SetInsertPoint(slow);
  Value *fetched = fetchThroughRuntime();
  SmallVector<Value *, 4> called;
  for (unsigned c = 0; c < 4; ++c)
    called.push_back(b.CreateExtractElement(fetched, c));
  BasicBlock *slowEnd = b.GetInsertBlock();
  b.CreateBr(done);

  b.SetInsertPoint(done);
  for (unsigned c = 0; c < 4; ++c) {
    PHINode *lane = b.CreatePHI(i32, 3);
    lane->addIncoming(b.getInt32(0), direct);
    lane->addIncoming(loaded[c], inRange);
    lane->addIncoming(called[c], slowEnd);
    lanes.push_back(lane);
  }
}

/// The boundary mode of suld/sust (`.trap` when none is given), as the
/// runtime's RESPEC_SURFACE_* values.
int PTXTranslator::surfaceModeOf(const PtxStatement &statement) {
  if (statement.has("clamp"))
    return 1;
  if (statement.has("zero"))
    return 2;
  return 0;
}

bool PTXTranslator::readSurfaceAccess(const PtxStatement &statement,
                                      const PtxOperand &data,
                                      const PtxOperand &place,
                                      SurfaceAccess &access) {
  SmallVector<PtxType, 3> types = typesOf(statement);
  if (!statement.has("b") || types.size() != 1)
    return false;
  // `{a, b}` or a single register.
  if (data.kind == PtxOperand::Vector)
    for (const PtxOperand &element : data.elements)
      access.elements.push_back(&element);
  else
    access.elements.push_back(&data);
  access.bits = types[0].bits;
  return access.elements.size() == vectorCountOf(statement) &&
         access.elements.size() * access.bits <= 128 &&
         readTexelAddress(statement, place, b.getInt32Ty(), access.address);
}

/// suld.b.geometry{.v2,.v4}.bN.mode d, [s, {c}]: the raw bits of 1, 2 or 4
/// elements at byte offset x of the surface's row.
bool PTXTranslator::translateSurfaceLoad(const PtxStatement &statement) {
  const auto &ops = statement.operands;
  SurfaceAccess access;
  if (ops.size() != 2 || !readSurfaceAccess(statement, ops[0], ops[1], access))
    return false;
  Type *i32 = b.getInt32Ty();
  FunctionCallee callee = runtimeFunction(
      "__respec_surf_load", FixedVectorType::get(i32, 4),
      {b.getInt64Ty(), i32, i32, i32, i32, i32, i32}, /*readOnly=*/true);
  const TexelAddress &at = access.address;
  Value *lanes = b.CreateCall(callee, {at.handle, at.coordinates[0],
                                       at.coordinates[1], at.coordinates[2],
                                       at.layer, b.getInt32(access.bytes()),
                                       b.getInt32(surfaceModeOf(statement))});
  Value *word = b.CreateBitCast(lanes, b.getIntNTy(128));
  for (auto [i, element] : llvm::enumerate(access.elements)) {
    Value *bitsValue = b.CreateTrunc(b.CreateLShr(word, i * access.bits),
                                     b.getIntNTy(access.bits));
    if (!write(*element, bitsValue))
      return false;
  }
  return true;
}

/// sust.b.geometry{.v2,.v4}.bN.mode [s, {c}], {a, ...}.
bool PTXTranslator::translateSurfaceStore(const PtxStatement &statement) {
  const auto &ops = statement.operands;
  SurfaceAccess access;
  if (ops.size() != 2 || !readSurfaceAccess(statement, ops[1], ops[0], access))
    return false;
  SmallVector<Value *, 4> values;
  for (const PtxOperand *element : access.elements) {
    Value *value = read(*element, b.getIntNTy(access.bits));
    if (!value)
      return false;
    values.push_back(value);
  }
  Type *i32 = b.getInt32Ty();
  Type *texel = FixedVectorType::get(i32, 4);
  FunctionCallee callee = runtimeFunction(
      "__respec_surf_store", b.getVoidTy(),
      {b.getInt64Ty(), i32, i32, i32, i32, i32, i32, texel},
      /*readOnly=*/false);
  Value *word = b.CreateZExt(packLanes(values), b.getIntNTy(128));
  const TexelAddress &at = access.address;
  b.CreateCall(callee, {at.handle, at.coordinates[0], at.coordinates[1],
                        at.coordinates[2], at.layer, b.getInt32(access.bytes()),
                        b.getInt32(surfaceModeOf(statement)),
                        b.CreateBitCast(word, texel)});
  return true;
}

//===----------------------------------------------------------------------===//
// Driver
//===----------------------------------------------------------------------===//

/// The register width a constraint letter stands for.
static std::optional<unsigned> constraintBits(StringRef code) {
  return StringSwitch<std::optional<unsigned>>(code)
      .Case("c", 8)
      .Case("h", 16)
      .Cases({"r", "f"}, 32)
      .Cases({"l", "d"}, 64)
      .Default(std::nullopt);
}

static Type *constraintType(StringRef code, LLVMContext &context) {
  return StringSwitch<Type *>(code)
      .Case("c", Type::getInt8Ty(context))
      .Case("h", Type::getInt16Ty(context))
      .Case("r", Type::getInt32Ty(context))
      .Case("l", Type::getInt64Ty(context))
      .Case("f", Type::getFloatTy(context))
      .Case("d", Type::getDoubleTy(context))
      .Cases({"n", "i"}, Type::getInt32Ty(context))
      .Default(nullptr);
}

/// One asm call to translate: its text, constraints, type and the values of
/// its immediate ("n") operands, which PTX needs as constants.
struct AsmSite {
  StringRef asmString;
  StringRef constraints;
  FunctionType *type;
  /// Per input: the constant of an immediate operand, or null.
  SmallVector<Constant *, 4> immediates;
};

/// Builds the translation of `site` as an internal function with the asm's
/// signature, or returns null (and the failing statement in `failure`).
static Function *buildTranslation(Module &module, const AsmSite &site,
                                  std::string &failure) {
  InlineAsm::ConstraintInfoVector constraints =
      InlineAsm::ParseConstraints(site.constraints);
  LLVMContext &context = module.getContext();
  Function *function =
      Function::Create(site.type, GlobalValue::InternalLinkage,
                       "__respec_ptx", module);
  function->addFnAttr(Attribute::AlwaysInline);
  function->addFnAttr(Attribute::NoUnwind);
  IRBuilder<> builder(BasicBlock::Create(context, "entry", function));
  PTXTranslator translator(*function, builder);
  // Operands are numbered outputs first, then inputs, clobbers not at all.
  SmallVector<Type *, 4> outputTypes;
  if (Type *result = site.type->getReturnType(); !result->isVoidTy()) {
    if (auto *structType = dyn_cast<StructType>(result))
      outputTypes.append(structType->element_begin(),
                         structType->element_end());
    else
      outputTypes.push_back(result);
  }
  unsigned operandIndex = 0, outputIndex = 0, inputIndex = 0;
  bool supported = true;
  for (const InlineAsm::ConstraintInfo &info : constraints) {
    if (info.Type == InlineAsm::isClobber)
      continue;
    StringRef code = info.Codes.empty() ? "" : StringRef(info.Codes.front());
    if (info.isIndirect || info.Codes.size() != 1 ||
        info.Type == InlineAsm::isLabel) {
      supported = false;
      break;
    }
    if (info.Type == InlineAsm::isOutput) {
      std::optional<unsigned> bits = constraintBits(code);
      if (!bits || outputIndex >= outputTypes.size()) {
        supported = false;
        break;
      }
      Type *type = outputTypes[outputIndex++];
      translator.bindOperand(operandIndex++, PoisonValue::get(type), *bits,
                             /*output=*/true);
      continue;
    }
    Value *value = function->getArg(inputIndex);
    Constant *immediate = site.immediates[inputIndex++];
    unsigned tied;
    if (!code.getAsInteger(10, tied)) {
      // "0": the input is the initial value of output 0 (`+r` operands).
      if (tied >= operandIndex) {
        supported = false;
        break;
      }
      unsigned bits = value->getType()->isPointerTy()
                          ? 64
                          : value->getType()->getPrimitiveSizeInBits();
      translator.bindOperand(tied, value, bits, /*output=*/true);
      translator.bindOperand(operandIndex++, value, bits, /*output=*/false);
      continue;
    }
    std::optional<unsigned> bits = constraintBits(code);
    if (immediate) {
      value = immediate;
      bits = value->getType()->getPrimitiveSizeInBits();
    }
    if (!bits) {
      supported = false;
      break;
    }
    translator.bindOperand(operandIndex++, value, *bits, false);
  }
  if (!supported ||
      !translator.translate(parsePTX(site.asmString))) {
    failure = supported ? translator.failure : displayText(site.asmString);
    function->eraseFromParent();
    return nullptr;
  }
  SmallVector<Value *, 4> results;
  for (unsigned i = 0; i < outputTypes.size(); ++i)
    results.push_back(translator.operandValue(i));
  // Outputs come back in the types of the call.
  Type *returnType = site.type->getReturnType();
  if (returnType->isVoidTy()) {
    builder.CreateRetVoid();
  } else {
    auto coerceTo = [&](Value *value, Type *type) -> Value * {
      if (value->getType() == type)
        return value;
      if (type->isPointerTy() || value->getType()->isPointerTy())
        return builder.CreateBitOrPointerCast(value, type);
      unsigned width = type->getPrimitiveSizeInBits();
      Value *bitsValue = value->getType()->isIntegerTy()
                             ? value
                             : builder.CreateBitCast(
                                   value, builder.getIntNTy(
                                              value->getType()
                                                  ->getPrimitiveSizeInBits()));
      return builder.CreateBitCast(
          builder.CreateZExtOrTrunc(bitsValue, builder.getIntNTy(width)), type);
    };
    if (outputTypes.size() == 1) {
      builder.CreateRet(coerceTo(results[0], returnType));
    } else {
      Value *aggregate = PoisonValue::get(returnType);
      for (auto [i, value] : llvm::enumerate(results))
        aggregate = builder.CreateInsertValue(
            aggregate, coerceTo(value, outputTypes[i]), i);
      builder.CreateRet(aggregate);
    }
  }
  // A translation the verifier rejects is a translator bug; keep the asm
  // (and its error) rather than hand broken IR to the rest of respec.
  if (verifyFunction(*function)) {
    failure = displayText(site.asmString);
    function->eraseFromParent();
    return nullptr;
  }
  return function;
}

/// The asm call's site description, or nothing for forms the translator
/// does not take (asm goto, indirect operands).
static std::optional<AsmSite> describeSite(CallInst &call) {
  auto *inlineAsm = dyn_cast<InlineAsm>(call.getCalledOperand());
  if (!inlineAsm)
    return std::nullopt;
  AsmSite site{inlineAsm->getAsmString(), inlineAsm->getConstraintString(),
               inlineAsm->getFunctionType(), {}};
  InlineAsm::ConstraintInfoVector constraints =
      InlineAsm::ParseConstraints(site.constraints);
  unsigned input = 0;
  for (const InlineAsm::ConstraintInfo &info : constraints) {
    if (info.Type != InlineAsm::isInput)
      continue;
    if (input >= call.arg_size())
      return std::nullopt;
    bool immediate = info.Codes.size() == 1 &&
                     (info.Codes[0] == "n" || info.Codes[0] == "i");
    Constant *constant = dyn_cast<Constant>(call.getArgOperand(input));
    site.immediates.push_back(immediate ? constant : nullptr);
    if (immediate && !constant)
      return std::nullopt;
    ++input;
  }
  if (input != call.arg_size())
    return std::nullopt;
  return site;
}

} // namespace

/// clang marks asm without a "memory" clobber as not touching memory (CUDA's
/// texture and surface reads among them), and the device compile inferred
/// the memory effects of the functions around such asm from that. Their
/// translations load and call the runtime, so the effects stated for those
/// functions, for their callers and at the call sites in between no longer
/// hold: they are dropped, and LLVM infers them again.
static void forgetMemoryEffects(const SmallPtrSetImpl<Function *> &functions) {
  SmallVector<Function *> worklist(functions.begin(), functions.end());
  SmallPtrSet<Function *, 16> seen(functions.begin(), functions.end());
  while (!worklist.empty()) {
    Function *function = worklist.pop_back_val();
    function->removeFnAttr(Attribute::Memory);
    for (User *user : function->users()) {
      auto *call = dyn_cast<CallBase>(user);
      if (!call || call->getCalledOperand() != function)
        continue;
      call->removeFnAttr(Attribute::Memory);
      if (seen.insert(call->getFunction()).second)
        worklist.push_back(call->getFunction());
    }
  }
}

static bool isSharedPointerType(Type *type) {
  return type->isPointerTy() &&
         type->getPointerAddressSpace() == mlir::respec::kShared;
}

/// Whether `expression` converts between shared pointers and integers.
static bool isSharedWindowConversion(const ConstantExpr &expression) {
  return (expression.getOpcode() == Instruction::PtrToInt &&
          isSharedPointerType(expression.getOperand(0)->getType())) ||
         (expression.getOpcode() == Instruction::IntToPtr &&
          isSharedPointerType(expression.getType()));
}

/// Adds the shared-window conversions among the constant expressions in
/// `value` to `found`.
static void collectConstantConversions(Value *value,
                                       SmallPtrSetImpl<Constant *> &seen,
                                       SmallVectorImpl<Constant *> &found) {
  auto *expression = dyn_cast<ConstantExpr>(value);
  if (!expression || !seen.insert(expression).second)
    return;
  if (isSharedWindowConversion(*expression))
    found.push_back(expression);
  for (Value *operand : expression->operands())
    collectConstantConversions(operand, seen, found);
}

/// A shared pointer as an integer is its offset into the block's shared
/// memory (the shared window), which PTX addresses shared memory by and
/// which `__cvta_generic_to_shared` and `__nvvm_get_smem_pointer` give
/// (clang: ptrtoint of an addrspacecast to addrspace(3)). The CPU has one
/// address space, so the offset is counted from the block's shared memory
/// (kSharedWindowFunction): ptrtoint becomes the distance from there, and
/// inttoptr that base plus the offset. The translated PTX (ld.shared,
/// cp.async, cvta.shared, ...) counts from the same base.
static void rewriteSharedWindowConversions(Module &module) {
  SmallVector<Constant *> constants;
  SmallPtrSet<Constant *, 16> seen;
  for (Function &function : module)
    for (Instruction &inst : instructions(function))
      for (Value *operand : inst.operands())
        collectConstantConversions(operand, seen, constants);
  if (!constants.empty())
    convertUsersOfConstantsToInstructions(constants, nullptr, true,
                                          /*IncludeSelf=*/true);
  for (Function &function : module) {
    SmallVector<Instruction *> conversions;
    for (Instruction &inst : instructions(function))
      if ((isa<PtrToIntInst>(inst) &&
           isSharedPointerType(inst.getOperand(0)->getType())) ||
          (isa<IntToPtrInst>(inst) && isSharedPointerType(inst.getType())))
        conversions.push_back(&inst);
    if (conversions.empty())
      continue;
    IRBuilder<> b(&*function.getEntryBlock().getFirstInsertionPt());
    Value *window = b.CreateCall(sharedWindowFunction(module));
    Value *windowAddress = b.CreatePtrToInt(window, b.getInt64Ty());
    for (Instruction *inst : conversions) {
      b.SetInsertPoint(inst);
      Value *result;
      if (isa<PtrToIntInst>(inst)) {
        Value *pointer = inst->getOperand(0);
        if (auto *cast = dyn_cast<AddrSpaceCastInst>(pointer))
          pointer = cast->getPointerOperand();
        else
          pointer = b.CreateAddrSpaceCast(pointer, window->getType());
        Value *offset = b.CreateSub(b.CreatePtrToInt(pointer, b.getInt64Ty()),
                                    windowAddress);
        result = b.CreateZExtOrTrunc(offset, inst->getType());
      } else {
        Value *offset =
            b.CreateZExtOrTrunc(inst->getOperand(0), b.getInt64Ty());
        result = b.CreateAddrSpaceCast(
            b.CreateGEP(b.getInt8Ty(), window, offset), inst->getType());
      }
      result->takeName(inst);
      inst->replaceAllUsesWith(result);
      inst->eraseFromParent();
    }
  }
}

/// `__isShared(p)`, `__isGlobal(p)`, ... (llvm.nvvm.isspacep.*): the runtime
/// tells which memory a pointer points into (abi.h).
static void lowerAddressSpaceQueries(Module &module) {
  struct Query {
    Intrinsic::ID id;
    unsigned space;
  };
  const Query queries[] = {
      {Intrinsic::nvvm_isspacep_global, RESPEC_ADDRESS_SPACE_GLOBAL},
      {Intrinsic::nvvm_isspacep_shared, RESPEC_ADDRESS_SPACE_SHARED},
      {Intrinsic::nvvm_isspacep_local, RESPEC_ADDRESS_SPACE_LOCAL},
      {Intrinsic::nvvm_isspacep_const, RESPEC_ADDRESS_SPACE_CONST}};
  for (const Query &query : queries) {
    Function *intrinsic = Intrinsic::getDeclarationIfExists(&module, query.id);
    if (!intrinsic)
      continue;
    FunctionCallee runtime = module.getOrInsertFunction(
        "__respec_address_space",
        FunctionType::get(Type::getInt32Ty(module.getContext()),
                          {PointerType::get(module.getContext(), 0)}, false));
    for (User *user : make_early_inc_range(intrinsic->users())) {
      auto *call = dyn_cast<CallInst>(user);
      if (!call || call->getCalledFunction() != intrinsic)
        continue;
      IRBuilder<> b(call);
      Value *space = b.CreateCall(
          runtime,
          {b.CreateAddrSpaceCast(call->getArgOperand(0), b.getPtrTy())});
      Value *result = b.CreateICmpEQ(space, b.getInt32(query.space));
      call->replaceAllUsesWith(result);
      call->eraseFromParent();
    }
  }
}

bool translateInlinePTX(Module &module) {
  rewriteSharedWindowConversions(module);
  lowerAddressSpaceQueries(module);
  SmallVector<CallInst *> calls;
  for (Function &function : module)
    for (BasicBlock &block : function)
      for (Instruction &inst : block)
        if (auto *call = dyn_cast<CallInst>(&inst))
          if (isa<InlineAsm>(call->getCalledOperand()))
            calls.push_back(call);
  // Header functions repeat the same statements; translate each once.
  std::map<std::string, Function *> translations;
  SmallPtrSet<Function *, 8> translatedIn;
  bool changed = false;
  for (CallInst *call : calls) {
    std::optional<AsmSite> site = describeSite(*call);
    if (!site)
      continue;
    std::string key;
    raw_string_ostream keyStream(key);
    keyStream << site->asmString << '\0' << site->constraints << '\0'
              << *site->type;
    for (Constant *immediate : site->immediates)
      if (immediate)
        keyStream << '\0' << *immediate;
    auto [it, inserted] = translations.try_emplace(key, nullptr);
    if (inserted) {
      std::string failure;
      it->second = buildTranslation(module, *site, failure);
    }
    if (!it->second)
      continue;
    SmallVector<Value *, 4> args(call->args());
    CallInst *replacement = CallInst::Create(it->second, args, "", call->getIterator());
    replacement->setDebugLoc(call->getDebugLoc());
    call->replaceAllUsesWith(replacement);
    translatedIn.insert(call->getFunction());
    call->eraseFromParent();
    changed = true;
  }
  forgetMemoryEffects(translatedIn);
  return changed;
}

std::string describeUntranslatedPTX(StringRef asmString,
                                    StringRef constraints) {
  LLVMContext context;
  Module module("ptx", context);
  // Rebuild the call's type from the constraints; immediates are 0.
  InlineAsm::ConstraintInfoVector infos =
      InlineAsm::ParseConstraints(constraints);
  SmallVector<Type *, 4> outputs, inputs;
  AsmSite site{asmString, constraints, nullptr, {}};
  for (const InlineAsm::ConstraintInfo &info : infos) {
    if (info.Type == InlineAsm::isClobber)
      continue;
    StringRef code = info.Codes.empty() ? "" : StringRef(info.Codes.front());
    Type *type = constraintType(code, context);
    unsigned tied;
    if (info.Type == InlineAsm::isInput && !code.getAsInteger(10, tied) &&
        tied < outputs.size())
      type = outputs[tied];
    if (!type)
      return displayText(asmString);
    if (info.Type == InlineAsm::isOutput) {
      outputs.push_back(type);
      continue;
    }
    inputs.push_back(type);
    site.immediates.push_back(code == "n" || code == "i"
                                  ? ConstantInt::get(type, 0)
                                  : nullptr);
  }
  Type *result = outputs.empty()     ? Type::getVoidTy(context)
                 : outputs.size() == 1 ? outputs[0]
                                       : StructType::get(context, outputs);
  site.type = FunctionType::get(result, inputs, false);
  std::string failure;
  if (buildTranslation(module, site, failure))
    return "";
  return failure;
}

} // namespace respec
