// Reductions of libidtr (reduce_all, exscan) and the consistency checks of
// collective calls (the fused allreduce, check_call), with their extern "C"
// entry points for every element type.
#include "internal.hpp"
#include "typed.hpp"

#include <algorithm>
#include <cinttypes>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <mutex>
#include <type_traits>

namespace idtr::detail {
namespace {

// ------------------------------------------------------------- reductions ---
//
// With checks enabled (default), the first MPI_Allreduce of every reduction
// is "fused": a fixed-size buffer holding the first kFusedElems elements and
// a header {count, op, element type, effective op} (with
// IDTR_CHECK_COLLECTIVES also {entry point, key, metadata}: the CallSig),
// reduced by a user-defined op that takes the element-wise max of the header
// (and its negation) and reduces the data only if both sides agree. Every
// rank therefore learns about a disagreement after that first call and all
// abort together, without an extra collective for the check. Elements beyond
// kFusedElems are reduced with the built-in MPI ops.
//
// IDTR_CHECK_COLLECTIVES runs the same fused allreduce, with no data, at the
// start of every other collective entry point (check_call). As all checks are
// the same MPI call, a rank in a reduction and a rank in, say, a halo
// exchange meet in it and see the disagreement, instead of mismatched MPI
// collectives. On a disagreement of the entry point, key or metadata all
// ranks exchange descriptions of their calls (an allgather; error path only)
// and team rank 0 reports the first rank whose call differs from its own.

constexpr int kFusedElems = 32;
constexpr int kFusedFields = 7; // cnt, op, type, eop, entry, key, meta
constexpr int kBaseFields = 4;  // without IDTR_CHECK_COLLECTIVES
constexpr int kFusedHdr = 2 * kFusedFields; // each field v as (v, -v)
struct FusedBuf {
  int64_t data[kFusedElems]; // the first elements (fused_capacity of them)
  int64_t hdr[kFusedHdr];    // the first 2 * fused_fields() are sent
};
/// How many elements of `size` bytes the fused buffer carries (kFusedElems
/// of up to 8 bytes, half as many complex<double>).
constexpr int64_t fused_capacity(size_t size) {
  return std::min<int64_t>(kFusedElems, sizeof(FusedBuf::data) / size);
}

/// Header fields exchanged: entry point, key and metadata only with
/// IDTR_CHECK_COLLECTIVES (only then can a reduction meet another kind of
/// call in its fused allreduce), so that reductions do not pay for them
/// otherwise.
int fused_fields() { return check_collectives() ? kFusedFields : kBaseFields; }
/// Bytes of a FusedBuf sent with `nf` header fields.
constexpr size_t fused_bytes(int nf) {
  return sizeof(int64_t) * (kFusedElems + 2 * static_cast<size_t>(nf));
}

enum TypeCode : int64_t {
  kF64,
  kF32,
  kI64,
  kI32,
  kI16,
  kI8,
  kU8,
  kU64,
  kU32,
  kU16,
  kF16,
  kBF16,
  kC64,
  kC128,
  kNumCodes
};
template <class T> constexpr int64_t type_code() {
  if constexpr (std::is_same_v<T, double>)
    return kF64;
  else if constexpr (std::is_same_v<T, float>)
    return kF32;
  else if constexpr (std::is_same_v<T, int64_t>)
    return kI64;
  else if constexpr (std::is_same_v<T, int32_t>)
    return kI32;
  else if constexpr (std::is_same_v<T, int16_t>)
    return kI16;
  else if constexpr (std::is_same_v<T, int8_t>)
    return kI8;
  else if constexpr (std::is_same_v<T, uint8_t>)
    return kU8;
  else if constexpr (std::is_same_v<T, uint64_t>)
    return kU64;
  else if constexpr (std::is_same_v<T, uint32_t>)
    return kU32;
  else if constexpr (std::is_same_v<T, _Float16>)
    return kF16;
  else if constexpr (std::is_same_v<T, idtr::bfloat16>)
    return kBF16;
  else if constexpr (std::is_same_v<T, std::complex<float>>)
    return kC64;
  else if constexpr (std::is_same_v<T, std::complex<double>>)
    return kC128;
  else
    return kU16;
}

/// inout[i] = in[i] (op) inout[i]; integer arithmetic wraps like MPI's.
template <class T>
void apply_op(const void *in, void *inout, int64_t n, int64_t op) {
  T a[kFusedElems], b[kFusedElems];
  n = std::min<int64_t>(n, fused_capacity(sizeof(T)));
  std::memcpy(a, in, sizeof(T) * n);
  std::memcpy(b, inout, sizeof(T) * n);
  for (int64_t i = 0; i < n; ++i) {
    switch (op) {
    case IDTR_OP_SUM:
      if constexpr (std::is_integral_v<T>)
        b[i] = static_cast<T>(static_cast<uint64_t>(a[i]) +
                              static_cast<uint64_t>(b[i]));
      else
        b[i] = a[i] + b[i];
      break;
    case IDTR_OP_PROD:
      if constexpr (std::is_integral_v<T>)
        b[i] = static_cast<T>(static_cast<uint64_t>(a[i]) *
                              static_cast<uint64_t>(b[i]));
      else
        b[i] = a[i] * b[i];
      break;
    case IDTR_OP_MIN:
      if constexpr (!is_complex_v<T>) // (rejected before for complex)
        b[i] = std::min(a[i], b[i]);
      break;
    case IDTR_OP_MAX:
      if constexpr (!is_complex_v<T>)
        b[i] = std::max(a[i], b[i]);
      break;
    case IDTR_OP_LAND:
      b[i] = static_cast<T>(a[i] != T(0) && b[i] != T(0));
      break;
    default:
      b[i] = static_cast<T>(a[i] != T(0) || b[i] != T(0));
      break;
    }
  }
  std::memcpy(inout, b, sizeof(T) * n);
}

using ApplyFn = void (*)(const void *, void *, int64_t, int64_t);
/// By type code; 16-bit floats are reduced as floats (widened first).
constexpr ApplyFn kApply[kNumCodes] = {apply_op<double>,
                                       apply_op<float>,
                                       apply_op<int64_t>,
                                       apply_op<int32_t>,
                                       apply_op<int16_t>,
                                       apply_op<int8_t>,
                                       apply_op<uint8_t>,
                                       apply_op<uint64_t>,
                                       apply_op<uint32_t>,
                                       apply_op<uint16_t>,
                                       apply_op<float>,
                                       apply_op<float>,
                                       apply_op<std::complex<float>>,
                                       apply_op<std::complex<double>>};

/// Whether the max-combined header holds the same fields on every rank
/// (fields [first, last)).
bool consistent(const int64_t *h, int first, int last) {
  for (int k = first; k < last; ++k)
    if (h[2 * k] != -h[2 * k + 1])
      return false;
  return true;
}

/// fused_fn for headers of NF fields (constant sizes: inlined copies).
template <int NF> void fused_apply(void *in, void *inout, int len) {
  constexpr size_t bytes = fused_bytes(NF);
  for (int e = 0; e < len; ++e) {
    FusedBuf a, b; // MPI buffers need not be aligned
    char *pin = static_cast<char *>(in) + e * bytes;
    char *pio = static_cast<char *>(inout) + e * bytes;
    std::memcpy(&a, pin, bytes);
    std::memcpy(&b, pio, bytes);
    bool same = consistent(a.hdr, 0, NF) &&
                std::equal(a.hdr, a.hdr + 2 * NF, b.hdr) && a.hdr[4] >= 0 &&
                a.hdr[4] < kNumCodes;
    for (int k = 0; k < 2 * NF; ++k)
      b.hdr[k] = std::max(a.hdr[k], b.hdr[k]);
    if (same)
      kApply[a.hdr[4]](a.data, b.data, std::min<int64_t>(a.hdr[0], kFusedElems),
                       a.hdr[6]);
    std::memcpy(pio, &b, bytes);
  }
}

void fused_fn(void *in, void *inout, int *len, MPI_Datatype *) {
  if (fused_fields() == kBaseFields)
    fused_apply<kBaseFields>(in, inout, *len);
  else
    fused_apply<kFusedFields>(in, inout, *len);
}

std::mutex g_fused_mu;
bool g_fused_ready = false;
MPI_Op g_fused_op;
MPI_Datatype g_fused_type;

void fused_objects(MPI_Op &op, MPI_Datatype &type) {
  std::lock_guard<std::mutex> lk(g_fused_mu);
  if (!g_fused_ready) {
    IDTR_MPI(MPI_Type_contiguous(static_cast<int>(fused_bytes(fused_fields())),
                                 MPI_BYTE, &g_fused_type));
    IDTR_MPI(MPI_Type_commit(&g_fused_type));
    IDTR_MPI(MPI_Op_create(fused_fn, /*commute=*/1, &g_fused_op));
    g_fused_ready = true;
  }
  op = g_fused_op;
  type = g_fused_type;
}

// 62-bit FNV-1a hashes (non-negative, so that -h does not overflow).
constexpr uint64_t kFnvBasis = 14695981039346656037ull;
uint64_t fnv(uint64_t h, const void *p, size_t n) {
  const unsigned char *b = static_cast<const unsigned char *>(p);
  for (size_t i = 0; i < n; ++i)
    h = (h ^ b[i]) * 1099511628211ull;
  return h;
}
int64_t hash62(uint64_t h) { return static_cast<int64_t>(h >> 2); }

/// Hash of an entry point's name, memoised by address (the names are string
/// literals) so that a call does not hash its name every time.
int64_t entry_hash(const char *entry) {
  struct Memo {
    const char *entry;
    int64_t hash;
  };
  thread_local Memo memo[16] = {};
  Memo &m = memo[(reinterpret_cast<uintptr_t>(entry) >> 4) & 15];
  if (m.entry != entry) {
    m.hash = hash62(fnv(kFnvBasis, entry, std::strlen(entry)));
    m.entry = entry;
  }
  return m.hash;
}

/// The header fields of a call (kFusedFields values; entry point, key and
/// metadata 0 unless IDTR_CHECK_COLLECTIVES, see fused_fields).
void sig_fields(const CallSig &sig, int64_t *f) {
  f[0] = sig.count;
  f[1] = sig.op;
  f[2] = sig.type;
  f[3] = sig.eop;
  f[4] = f[5] = f[6] = 0;
  if (!check_collectives())
    return;
  uint64_t m = kFnvBasis;
  m = fnv(m, &sig.nmeta, sizeof sig.nmeta);
  for (int i = 0; i < sig.nmeta; ++i) {
    int n = sig.meta[i]->size();
    m = fnv(m, &n, sizeof n);
    m = fnv(m, sig.meta[i]->data(), sizeof(int64_t) * n);
  }
  f[4] = entry_hash(sig.entry);
  f[5] = std::max<int64_t>(sig.key, -INT64_MAX);
  f[6] = hash62(m);
}

/// A fused buffer with the header of `sig` and no data.
void init_fused(FusedBuf &f, const CallSig &sig) {
  std::memset(&f, 0, sizeof f);
  int64_t v[kFusedFields];
  sig_fields(sig, v);
  for (int k = 0; k < kFusedFields; ++k) {
    f.hdr[2 * k] = v[k];
    f.hdr[2 * k + 1] = -v[k];
  }
}

/// "_idtr_reduce_all_f64(n=40, op=sum)", "_idtr_update_halo_f64(key=3,
/// gshape=(9, 4))".
std::string describe(const CallSig &sig) {
  std::string r = sig.entry;
  r += "(";
  if (sig.reduction) {
    static const char *const kOps[] = {"sum", "prod", "min",
                                       "max", "land", "lor"};
    r += "n=" + std::to_string(sig.count) + ", op=" +
         (sig.op >= 0 && sig.op <= IDTR_OP_LOR ? kOps[sig.op]
                                               : std::to_string(sig.op));
  }
  const char *sep = "";
  if (sig.key_name) {
    r += std::string(sig.key_name) + "=" + std::to_string(sig.key);
    sep = ", ";
  }
  for (int i = 0; i < sig.nmeta; ++i, sep = ", ")
    r += sep + std::string(sig.meta_names[i]) + "=" + fmt_vec(*sig.meta[i]);
  return r + ")";
}

/// The fused allreduce of `f` on `t` (bounded by IDTR_TIMEOUT).
void fused_allreduce(Team &t, FusedBuf &f, const char *what) {
  MPI_Op fop;
  MPI_Datatype ft;
  fused_objects(fop, ft);
  run_collective(t, what, [&] {
    return MPI_Allreduce(MPI_IN_PLACE, &f, 1, ft, fop, t.comm);
  });
}

/// The ranks of `t` entered different calls (their fused headers disagree on
/// the entry point, key or metadata; every rank has seen that): exchange
/// descriptions and let team rank 0 report the first rank whose call differs
/// from its own. Collective; never returns.
[[noreturn]] void report_mismatch(Team &t, const CallSig &sig, uint64_t call) {
  struct Rec {
    int64_t f[kFusedFields];
    char desc[256];
  };
  Rec mine;
  std::memset(&mine, 0, sizeof mine);
  sig_fields(sig, mine.f);
  std::snprintf(mine.desc, sizeof mine.desc, "%s", describe(sig).c_str());
  std::vector<Rec> all(static_cast<size_t>(t.size));
  run_collective(t, "MPI_Allgather (report of a collective mismatch)", [&] {
    return MPI_Allgather(&mine, sizeof mine, MPI_BYTE, all.data(), sizeof mine,
                         MPI_BYTE, t.comm);
  });
  int r = 1;
  while (r < t.size - 1 &&
         std::equal(all[r].f, all[r].f + kFusedFields, all[0].f))
    ++r;
  all[0].desc[sizeof mine.desc - 1] = all[r].desc[sizeof mine.desc - 1] = 0;
  fail_collective(t.rank,
                  "collective mismatch in team %" PRId64 " (%d ranks) at its "
                  "checked collective call #%" PRIu64 ": rank 0 entered %s, "
                  "rank %d entered %s; every rank of a team must make the "
                  "same collective idtr calls in the same order, with the "
                  "same keys and global shapes",
                  t.id, t.size, call, all[0].desc, r, all[r].desc);
}

} // namespace

void check_call(Team &t, const CallSig &sig) {
  if (t.size == 1)
    return;
  const uint64_t call = t.checked.fetch_add(1) + 1;
  FusedBuf f;
  init_fused(f, sig);
  fused_allreduce(t, f, "MPI_Allreduce (IDTR_CHECK_COLLECTIVES check)");
  if (!consistent(f.hdr, 0, kFusedFields))
    report_mismatch(t, sig, call);
}

namespace {

/// Allreduce of n contiguous elements at w (element size es, MPI type mt,
/// MPI op mop); `sig` (count n, op, type, effective op) only enters the
/// consistency check.
void allreduce_checked(Team &t, void *w, int64_t n, size_t es, MPI_Datatype mt,
                       MPI_Op mop, const CallSig &sig) {
  char *p = static_cast<char *>(w);
  int64_t done = 0;
  if (checks_enabled() || check_collectives()) {
    const uint64_t call = check_collectives() ? t.checked.fetch_add(1) + 1 : 0;
    FusedBuf f;
    init_fused(f, sig);
    done = std::min<int64_t>(n, fused_capacity(es));
    std::memcpy(f.data, p, es * done);
    fused_allreduce(t, f,
                    "MPI_Allreduce (reduction with its cross-rank check)");
    stat_add(IDTR_STAT_REDUCE, IDTR_CNT_COLLECTIVES, 1);
    const int nf = fused_fields();
    stat_add(IDTR_STAT_REDUCE, IDTR_CNT_COLL_BYTES, fused_bytes(nf));
    if (!consistent(f.hdr, kBaseFields, nf))
      report_mismatch(t, sig, call); // a different call (check mode)
    if (!consistent(f.hdr, 0, kBaseFields))
      fail_collective(t.rank,
                      "ranks disagree on the reduced data (element counts "
                      "%" PRId64 "..%" PRId64 "), op (%" PRId64 "..%" PRId64
                      ") or element type",
                      -f.hdr[1], f.hdr[0], -f.hdr[3], f.hdr[2]);
    std::memcpy(p, f.data, es * done);
  }
  for (int64_t o = done; o < n; o += kChunk) {
    int c = static_cast<int>(std::min(kChunk, n - o));
    run_collective(t, "MPI_Allreduce (reduction)", [&] {
      return MPI_Allreduce(MPI_IN_PLACE, p + o * es, c, mt, mop, t.comm);
    });
    stat_add(IDTR_STAT_REDUCE, IDTR_CNT_COLLECTIVES, 1);
    stat_add(IDTR_STAT_REDUCE, IDTR_CNT_COLL_BYTES, es * c);
  }
}

CallSig reduce_sig(const char *entry, int64_t n, int64_t op, int64_t eop,
                   int64_t tc) {
  CallSig s;
  s.entry = entry;
  s.reduction = true;
  s.count = n;
  s.op = op;
  s.type = tc;
  s.eop = eop;
  return s;
}

/// The MPI op of an IDTR reduction op other than the logical ones.
MPI_Op arithmetic_op(int64_t op) {
  return op == IDTR_OP_SUM    ? MPI_SUM
         : op == IDTR_OP_PROD ? MPI_PROD
         : op == IDTR_OP_MIN  ? MPI_MIN
                              : MPI_MAX;
}

/// Whether IDTR reduction `op` on element type TR is a logical one (i1:
/// sum/max/or are "any", prod/min/and are "all": numpy bool semantics), and
/// if so whether it is an "and".
template <class TR> bool is_logical(int64_t op, bool &is_and) {
  is_and = op == IDTR_OP_LAND || op == IDTR_OP_PROD || op == IDTR_OP_MIN;
  return op == IDTR_OP_LAND || op == IDTR_OP_LOR || TR::is_bool;
}

/// Runs `fn(p, n)` on a contiguous copy of the elements of `data` (the data
/// itself when dense) and writes the copy back.
template <class T, class Fn> void on_dense_elements(View<T> &data, Fn fn) {
  const int64_t n = data.numel();
  std::unique_ptr<T[]> tmp;
  View<T> dv = dense_view<T>(nullptr, data.sizes, data.rank);
  T *p = data.base;
  if (!is_dense(data) && n > 0) {
    tmp.reset(new T[n]);
    dv.base = tmp.get();
    copy_view(dv, data);
    p = tmp.get();
  }
  fn(p, n);
  if (tmp)
    copy_view(data, dv);
}

void check_reduction_op(int64_t op) {
  if (op < IDTR_OP_SUM || op > IDTR_OP_LOR)
    fail("invalid reduction op %" PRId64
         " (0 sum, 1 prod, 2 min, 3 max, 4 logical and, 5 logical or)",
         op);
}

/// min and max need an order, which complex numbers do not have.
template <class T> void check_ordered(int64_t op) {
  if (is_complex_v<T> && (op == IDTR_OP_MIN || op == IDTR_OP_MAX))
    fail("reduction op %" PRId64 " (%s) is not defined on complex numbers", op,
         op == IDTR_OP_MIN ? "min" : "max");
}

template <class TR>
void reduce_all(const char *entry, int64_t team, int64_t dr, void *dd,
                int64_t op) {
  using T = typename TR::T;
  EntryScope es(entry);
  StatTimer timer(IDTR_STAT_REDUCE, IDTR_CNT_CALL_NS);
  stat_add(IDTR_STAT_REDUCE, IDTR_CNT_CALLS, 1);
  auto t = get_team(team);
  View<T> data = make_view<T>("data", dr, dd, Use::Out);
  check_reduction_op(op);
  check_ordered<T>(op);
  bool is_and;
  const bool logical = is_logical<TR>(op, is_and);
  on_dense_elements(data, [&](T *p, int64_t n) {
    if (logical) {
      std::unique_ptr<uint8_t[]> b(new uint8_t[std::max<int64_t>(n, 1)]);
      for (int64_t i = 0; i < n; ++i)
        b[i] = p[i] != T(0);
      if (t->size > 1)
        allreduce_checked(
            *t, b.get(), n, 1, MPI_UINT8_T, is_and ? MPI_LAND : MPI_LOR,
            reduce_sig(entry, n, op, is_and ? IDTR_OP_LAND : IDTR_OP_LOR, kU8));
      for (int64_t i = 0; i < n; ++i)
        p[i] = static_cast<T>(b[i]);
    } else if (t->size > 1) {
      if constexpr (TR::is_half) {
        // (At least one element: the fused check copies from data()
        // even for empty arrays.)
        std::vector<float> wide(std::max<int64_t>(n, 1));
        std::copy(p, p + n, wide.begin());
        allreduce_checked(*t, wide.data(), n, sizeof(float), MPI_FLOAT,
                          arithmetic_op(op),
                          reduce_sig(entry, n, op, op, type_code<T>()));
        for (int64_t i = 0; i < n; ++i)
          p[i] = static_cast<T>(wide[i]);
      } else {
        allreduce_checked(*t, p, n, sizeof(T), TR::mpi(), arithmetic_op(op),
                          reduce_sig(entry, n, op, op, type_code<T>()));
      }
    }
  });
}

/// The identity of IDTR reduction `op` on T (the result of an exclusive
/// scan on the first rank).
template <class TR> typename TR::T reduction_identity(int64_t op) {
  using T = typename TR::T;
  bool is_and;
  if (is_logical<TR>(op, is_and))
    return static_cast<T>(is_and ? 1 : 0);
  if (op == IDTR_OP_SUM)
    return T(0);
  if (op == IDTR_OP_PROD)
    return T(1);
  if constexpr (TR::is_half) {
    const float inf = std::numeric_limits<float>::infinity();
    return static_cast<T>(op == IDTR_OP_MIN ? inf : -inf);
  } else if constexpr (is_complex_v<T>) {
    return T(0); // (min/max are rejected by check_ordered)
  } else {
    using L = std::numeric_limits<T>;
    if (L::has_infinity)
      return op == IDTR_OP_MIN ? L::infinity() : -L::infinity();
    return op == IDTR_OP_MIN ? L::max() : L::lowest();
  }
}

template <class TR>
void exscan(const char *entry, int64_t team, int64_t dr, void *dd, int64_t op) {
  using T = typename TR::T;
  EntryScope es(entry);
  StatTimer timer(IDTR_STAT_REDUCE, IDTR_CNT_CALL_NS);
  stat_add(IDTR_STAT_REDUCE, IDTR_CNT_CALLS, 1);
  auto t = get_team(team);
  View<T> data = make_view<T>("data", dr, dd, Use::Out);
  check_reduction_op(op);
  check_ordered<T>(op);
  bool is_and;
  const bool logical = is_logical<TR>(op, is_and);
  const int64_t eop = logical ? (is_and ? IDTR_OP_LAND : IDTR_OP_LOR) : op;
  const int64_t n = data.numel();
  // MPI_Exscan has no fused form: the signature is checked by an allreduce
  // of the header alone (ranks disagreeing on the count, op or element
  // type would otherwise corrupt memory or hang).
  if (t->size > 1 && (checks_enabled() || check_collectives())) {
    const CallSig sig = reduce_sig(entry, n, op, eop, type_code<T>());
    const uint64_t call = check_collectives() ? t->checked.fetch_add(1) + 1 : 0;
    FusedBuf f;
    init_fused(f, sig);
    fused_allreduce(*t, f, "MPI_Allreduce (check of an exclusive scan)");
    stat_add(IDTR_STAT_REDUCE, IDTR_CNT_COLLECTIVES, 1);
    stat_add(IDTR_STAT_REDUCE, IDTR_CNT_COLL_BYTES,
             fused_bytes(fused_fields()));
    if (!consistent(f.hdr, kBaseFields, fused_fields()))
      report_mismatch(*t, sig, call);
    if (!consistent(f.hdr, 0, kBaseFields))
      fail_collective(t->rank,
                      "ranks disagree on the scanned data (element counts "
                      "%" PRId64 "..%" PRId64 "), op (%" PRId64 "..%" PRId64
                      ") or element type",
                      -f.hdr[1], f.hdr[0], -f.hdr[3], f.hdr[2]);
  }
  const T identity = reduction_identity<TR>(op);
  on_dense_elements(data, [&](T *p, int64_t) {
    if (t->size > 1) {
      // MPI_IN_PLACE: rank r receives the reduction of ranks 0..r-1; the
      // first rank's buffer is left undefined by MPI and set below.
      std::unique_ptr<uint8_t[]> b;
      void *buf = p;
      MPI_Datatype type = TR::mpi();
      MPI_Op mop = arithmetic_op(op);
      size_t size = sizeof(T);
      std::vector<float> wide;
      if (logical) {
        b.reset(new uint8_t[std::max<int64_t>(n, 1)]);
        for (int64_t i = 0; i < n; ++i)
          b[i] = p[i] != T(0);
        buf = b.get();
        type = MPI_UINT8_T;
        mop = is_and ? MPI_LAND : MPI_LOR;
        size = 1;
      } else if constexpr (TR::is_half) {
        wide.assign(p, p + n);
        buf = wide.data();
        type = MPI_FLOAT;
        size = sizeof(float);
      }
      char *c = static_cast<char *>(buf);
      for (int64_t o = 0; o < n; o += kChunk) {
        int count = static_cast<int>(std::min(kChunk, n - o));
        run_collective(*t, "MPI_Exscan (exclusive scan)", [&] {
          return MPI_Exscan(MPI_IN_PLACE, c + o * size, count, type, mop,
                            t->comm);
        });
        stat_add(IDTR_STAT_REDUCE, IDTR_CNT_COLLECTIVES, 1);
        stat_add(IDTR_STAT_REDUCE, IDTR_CNT_COLL_BYTES, size * count);
      }
      if (logical)
        for (int64_t i = 0; i < n; ++i)
          p[i] = static_cast<T>(b[i]);
      for (size_t i = 0; i < wide.size(); ++i)
        p[i] = static_cast<T>(wide[i]);
    }
    if (t->rank == 0)
      std::fill(p, p + n, identity);
  });
}

} // namespace

void free_reduce_objects() {
  std::lock_guard<std::mutex> lk(g_fused_mu);
  if (g_fused_ready) {
    MPI_Op_free(&g_fused_op);
    MPI_Type_free(&g_fused_type);
    g_fused_ready = false;
  }
}

} // namespace idtr::detail

// ------------------------------------------------------ C entry points ---

using namespace idtr::detail;

#define M(n) int64_t n##_r, void *n##_d
#define A(n) n##_r, n##_d

#define IDTR_DEFINE_REDUCTIONS(S, TR)                                          \
  IDTR_EXPORT void _idtr_reduce_all_##S(int64_t team, M(data), int64_t op) {   \
    reduce_all<TR>("_idtr_reduce_all_" #S, team, A(data), op);                 \
  }                                                                            \
  IDTR_EXPORT void _idtr_exscan_##S(int64_t team, M(data), int64_t op) {       \
    exscan<TR>("_idtr_exscan_" #S, team, A(data), op);                         \
  }

IDTR_FOR_EACH_TRAIT(IDTR_DEFINE_REDUCTIONS)
