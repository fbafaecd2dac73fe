//go:build amd64 && !purego

#include "textflag.h"

// Gather kernels for HNSW: score a list of nodes against the query, node
// x's vector starting at base + x·stride. A graph search reads vectors
// scattered over the index, so its time goes to cache misses, not to
// arithmetic. These kernels first request the first cache lines of every
// node's vector, so that all the first misses are under way at once, then
// score the nodes four at a time while the next four vectors are requested
// whole with PREFETCHT0: the misses overlap with the arithmetic and with
// each other instead of being paid one vector at a time.
//
// Each score follows the order of arithmetic of dot.go (lane i%16, fused
// multiply-add, the fixed tree of lane sums), so it is bit for bit Dot's,
// as the four-row kernels of dot_amd64.s are.

// HSUM512G and HSUM256G are dot_amd64.s's HSUM512 and HSUM256 (macros do
// not cross files).
#define HSUM512G(Z, Y, X, TY, TX) \
	VEXTRACTF64X4 $1, Z, TY \
	VADDPS        TY, Y, Y  \
	VEXTRACTF32X4 $1, Y, TX \
	VADDPS        TX, X, X  \
	VMOVHLPS      X, X, TX  \
	VADDPS        TX, X, X  \
	VMOVSHDUP     X, TX     \
	VADDSS        TX, X, X

#define HSUM256G(YA, XA, YB, TX) \
	VADDPS       YB, YA, YA \
	VEXTRACTF128 $1, YA, TX \
	VADDPS       TX, XA, XA \
	VMOVHLPS     XA, XA, TX \
	VADDPS       TX, XA, XA \
	VMOVSHDUP    XA, TX     \
	VADDSS       TX, XA, XA

// NODEADDR sets R to the address of the vector of the node whose number
// (uint32) is at M: DI + node·R9.
#define NODEADDR(M, R) \
	MOVL  M, R   \
	IMULQ R9, R  \
	ADDQ  DI, R

// gathermask<> is 16 all-ones words then 16 zero words: the 32 bytes at
// word 16-r are the AVX2 load mask of lanes 0-7 for a tail of r < 16
// elements, and those at word 24-r the mask of lanes 8-15 (as tailmask<>
// in dot_amd64.s).
DATA gathermask<>+0(SB)/8, $0xffffffffffffffff
DATA gathermask<>+8(SB)/8, $0xffffffffffffffff
DATA gathermask<>+16(SB)/8, $0xffffffffffffffff
DATA gathermask<>+24(SB)/8, $0xffffffffffffffff
DATA gathermask<>+32(SB)/8, $0xffffffffffffffff
DATA gathermask<>+40(SB)/8, $0xffffffffffffffff
DATA gathermask<>+48(SB)/8, $0xffffffffffffffff
DATA gathermask<>+56(SB)/8, $0xffffffffffffffff
DATA gathermask<>+64(SB)/8, $0
DATA gathermask<>+72(SB)/8, $0
DATA gathermask<>+80(SB)/8, $0
DATA gathermask<>+88(SB)/8, $0
DATA gathermask<>+96(SB)/8, $0
DATA gathermask<>+104(SB)/8, $0
DATA gathermask<>+112(SB)/8, $0
DATA gathermask<>+120(SB)/8, $0
GLOBL gathermask<>(SB), RODATA|NOPTR, $128

// func prefetchNodesT0(base unsafe.Pointer, stride uintptr, nodes *uint32, n int, bytes int)
//
// prefetchNodesT0 requests into L1 the cache lines holding the first bytes
// bytes at base + x·stride of each of the n nodes x.
TEXT ·prefetchNodesT0(SB), NOSPLIT, $0-40
	MOVQ base+0(FP), DI
	MOVQ stride+8(FP), R9
	MOVQ nodes+16(FP), BX
	MOVQ n+24(FP), CX
	MOVQ bytes+32(FP), R10

node:
	TESTQ CX, CX
	JZ    done
	NODEADDR((BX), AX)
	LEAQ  (AX)(R10*1), DX
	ANDQ  $-64, AX

line:
	PREFETCHT0 (AX)
	ADDQ       $64, AX
	CMPQ       AX, DX
	JLT        line
	ADDQ       $4, BX
	DECQ       CX
	JMP        node

done:
	RET

// Registers of the kernels: SI the query, DI the base, R9 the stride, BX
// the nodes, R10 the nodes left, R8 the output, R11 the full 16-element
// chunks of a vector, CX the vector's bytes.

// func dotNodesAVX512(q *float32, base unsafe.Pointer, stride uintptr, dim int, nodes *uint32, n int, out *float32)
//
// out[i] is the inner product of q (dim values) with the vector of node
// nodes[i], for i < n.
TEXT ·dotNodesAVX512(SB), NOSPLIT, $0-56
#include "gather_f32avx512.h"

// func dotNodesAVX2(q *float32, base unsafe.Pointer, stride uintptr, dim int, nodes *uint32, n int, out *float32)
//
// dotNodesAVX2 is dotNodesAVX512 with the 16 lanes in two YMM registers,
// as dotRowsAVX2.
TEXT ·dotNodesAVX2(SB), NOSPLIT, $0-56
#include "gather_f32avx2.h"

// Int8 gather kernels for HNSW's Int8 codes: byte j of a node's code is
// c_j in [0, 127], the query's is r_j - 64 in [-63, 63] (see Int8), and
// out[i] is the exact integer Σ c_j·(r_j - 64) over nbytes bytes, a
// multiple of 64 (zero padded). Codes are a quarter of the vectors, so
// every node's code is requested whole before any is scored.

// HSUMI512G sums the sixteen int32 lanes of Z into the low lane of X (as
// HSUMI512 in dot_amd64.s).
#define HSUMI512G(Z, Y, X, TY, TX) \
	VEXTRACTI64X4 $1, Z, TY \
	VPADDD        TY, Y, Y  \
	VEXTRACTI128  $1, Y, TX \
	VPADDD        TX, X, X  \
	VPSHUFD       $0x4e, X, TX \
	VPADDD        TX, X, X  \
	VPSHUFD       $0xb1, X, TX \
	VPADDD        TX, X, X

// HSUMI256G sums the eight int32 lanes of Y into the low lane of X.
#define HSUMI256G(Y, X, TX) \
	VEXTRACTI128 $1, Y, TX \
	VPADDD       TX, X, X  \
	VPSHUFD      $0x4e, X, TX \
	VPADDD       TX, X, X  \
	VPSHUFD      $0xb1, X, TX \
	VPADDD       TX, X, X

// func dotNodesU8VNNI(q *int8, base unsafe.Pointer, stride uintptr, nbytes int, nodes *uint32, n int, out *int32)
//
// VPDPBUSD multiplies the codes, as unsigned bytes, by the query's signed
// bytes and adds groups of four products into int32 lanes.
TEXT ·dotNodesU8VNNI(SB), NOSPLIT, $0-56
	MOVQ q+0(FP), SI
	MOVQ base+8(FP), DI
	MOVQ stride+16(FP), R9
	MOVQ nbytes+24(FP), CX
	MOVQ nodes+32(FP), BX
	MOVQ n+40(FP), R10
	MOVQ out+48(FP), R8
	MOVQ CX, R11
	SHRQ $6, R11           // 64-byte chunks
	MOVQ BX, R12
	MOVQ R10, R13

pfnode:
	TESTQ R13, R13
	JZ    group
	NODEADDR((R12), AX)
	LEAQ  (AX)(CX*1), DX
	ANDQ  $-64, AX

pfline:
	PREFETCHT0 (AX)
	ADDQ       $64, AX
	CMPQ       AX, DX
	JLT        pfline
	ADDQ       $4, R12
	DECQ       R13
	JMP        pfnode

group:
	CMPQ R10, $4
	JLT  single
	NODEADDR(0(BX), R12)
	NODEADDR(4(BX), R13)
	NODEADDR(8(BX), R14)
	NODEADDR(12(BX), R15)
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	VPXORD Z2, Z2, Z2
	VPXORD Z3, Z3, Z3
	XORQ   AX, AX
	MOVQ   R11, DX

loop4:
	VMOVDQU8 (SI)(AX*1), Z4
	VMOVDQU8 (R12)(AX*1), Z5
	VPDPBUSD Z4, Z5, Z0
	VMOVDQU8 (R13)(AX*1), Z6
	VPDPBUSD Z4, Z6, Z1
	VMOVDQU8 (R14)(AX*1), Z7
	VPDPBUSD Z4, Z7, Z2
	VMOVDQU8 (R15)(AX*1), Z8
	VPDPBUSD Z4, Z8, Z3
	ADDQ     $64, AX
	DECQ     DX
	JNZ      loop4
	HSUMI512G(Z0, Y0, X0, Y8, X8)
	HSUMI512G(Z1, Y1, X1, Y8, X8)
	HSUMI512G(Z2, Y2, X2, Y8, X8)
	HSUMI512G(Z3, Y3, X3, Y8, X8)
	VMOVD    X0, 0(R8)
	VMOVD    X1, 4(R8)
	VMOVD    X2, 8(R8)
	VMOVD    X3, 12(R8)
	ADDQ     $16, R8
	ADDQ     $16, BX
	SUBQ     $4, R10
	JMP      group

single:
	TESTQ  R10, R10
	JZ     done
	NODEADDR((BX), R12)
	VPXORD Z0, Z0, Z0
	XORQ   AX, AX
	MOVQ   R11, DX

loop1:
	VMOVDQU8 (SI)(AX*1), Z4
	VMOVDQU8 (R12)(AX*1), Z5
	VPDPBUSD Z4, Z5, Z0
	ADDQ     $64, AX
	DECQ     DX
	JNZ      loop1
	HSUMI512G(Z0, Y0, X0, Y8, X8)
	VMOVD    X0, (R8)
	ADDQ     $4, R8
	ADDQ     $4, BX
	DECQ     R10
	JMP      single

done:
	VZEROUPPER
	RET

// func dotNodesU8AVX2(q *int8, base unsafe.Pointer, stride uintptr, nbytes int, nodes *uint32, n int, out *int32)
//
// Without VNNI: VPMADDUBSW multiplies the codes (unsigned) by the query
// (signed) and adds pairs into int16 lanes, at most 2·127·63 in magnitude,
// so without saturating; VPMADDWD by ones widens the pairs to int32.
TEXT ·dotNodesU8AVX2(SB), NOSPLIT, $0-56
	MOVQ     q+0(FP), SI
	MOVQ     base+8(FP), DI
	MOVQ     stride+16(FP), R9
	MOVQ     nbytes+24(FP), CX
	MOVQ     nodes+32(FP), BX
	MOVQ     n+40(FP), R10
	MOVQ     out+48(FP), R8
	MOVQ     CX, R11
	SHRQ     $5, R11         // 32-byte chunks
	VPCMPEQW Y15, Y15, Y15
	VPSRLW   $15, Y15, Y15   // int16 ones
	MOVQ     BX, R12
	MOVQ     R10, R13

pfnode:
	TESTQ R13, R13
	JZ    group
	NODEADDR((R12), AX)
	LEAQ  (AX)(CX*1), DX
	ANDQ  $-64, AX

pfline:
	PREFETCHT0 (AX)
	ADDQ       $64, AX
	CMPQ       AX, DX
	JLT        pfline
	ADDQ       $4, R12
	DECQ       R13
	JMP        pfnode

group:
	CMPQ R10, $4
	JLT  single
	NODEADDR(0(BX), R12)
	NODEADDR(4(BX), R13)
	NODEADDR(8(BX), R14)
	NODEADDR(12(BX), R15)
	VPXOR Y0, Y0, Y0
	VPXOR Y1, Y1, Y1
	VPXOR Y2, Y2, Y2
	VPXOR Y3, Y3, Y3
	XORQ  AX, AX
	MOVQ  R11, DX

loop4:
	VMOVDQU    (SI)(AX*1), Y4
	VMOVDQU    (R12)(AX*1), Y5
	VPMADDUBSW Y4, Y5, Y5
	VPMADDWD   Y15, Y5, Y5
	VPADDD     Y5, Y0, Y0
	VMOVDQU    (R13)(AX*1), Y6
	VPMADDUBSW Y4, Y6, Y6
	VPMADDWD   Y15, Y6, Y6
	VPADDD     Y6, Y1, Y1
	VMOVDQU    (R14)(AX*1), Y7
	VPMADDUBSW Y4, Y7, Y7
	VPMADDWD   Y15, Y7, Y7
	VPADDD     Y7, Y2, Y2
	VMOVDQU    (R15)(AX*1), Y8
	VPMADDUBSW Y4, Y8, Y8
	VPMADDWD   Y15, Y8, Y8
	VPADDD     Y8, Y3, Y3
	ADDQ       $32, AX
	DECQ       DX
	JNZ        loop4
	HSUMI256G(Y0, X0, X8)
	HSUMI256G(Y1, X1, X8)
	HSUMI256G(Y2, X2, X8)
	HSUMI256G(Y3, X3, X8)
	VMOVD      X0, 0(R8)
	VMOVD      X1, 4(R8)
	VMOVD      X2, 8(R8)
	VMOVD      X3, 12(R8)
	ADDQ       $16, R8
	ADDQ       $16, BX
	SUBQ       $4, R10
	JMP        group

single:
	TESTQ R10, R10
	JZ    done
	NODEADDR((BX), R12)
	VPXOR Y0, Y0, Y0
	XORQ  AX, AX
	MOVQ  R11, DX

loop1:
	VMOVDQU    (SI)(AX*1), Y4
	VMOVDQU    (R12)(AX*1), Y5
	VPMADDUBSW Y4, Y5, Y5
	VPMADDWD   Y15, Y5, Y5
	VPADDD     Y5, Y0, Y0
	ADDQ       $32, AX
	DECQ       DX
	JNZ        loop1
	HSUMI256G(Y0, X0, X8)
	VMOVD      X0, (R8)
	ADDQ       $4, R8
	ADDQ       $4, BX
	DECQ       R10
	JMP        single

done:
	VZEROUPPER
	RET

// The kernels of an External index: dotNodesAVX512 and dotNodesAVX2 with
// node x's vector reached through the slice header at base + x·stride
// (stride 24, base the first header of the rows), so that the rows,
// scattered over the caller's memory, are requested and scored as node
// blocks are.
#undef NODEADDR
#define NODEADDR(M, R) \
	MOVL  M, R   \
	IMULQ R9, R  \
	MOVQ  (DI)(R*1), R

// func dotRowsOfAVX512(q *float32, base unsafe.Pointer, stride uintptr, dim int, nodes *uint32, n int, out *float32)
TEXT ·dotRowsOfAVX512(SB), NOSPLIT, $0-56
#include "gather_f32avx512.h"

// func dotRowsOfAVX2(q *float32, base unsafe.Pointer, stride uintptr, dim int, nodes *uint32, n int, out *float32)
TEXT ·dotRowsOfAVX2(SB), NOSPLIT, $0-56
#include "gather_f32avx2.h"
