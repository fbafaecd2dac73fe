// gather_f32avx2.h: the body of dotNodesAVX2 and dotRowsOfAVX2 (gather_amd64.s),
// included after their TEXT lines, with NODEADDR defined to reach node
// blocks or rows.

	MOVQ  q+0(FP), SI
	MOVQ  base+8(FP), DI
	MOVQ  stride+16(FP), R9
	MOVQ  dim+24(FP), CX
	MOVQ  nodes+32(FP), BX
	MOVQ  n+40(FP), R10
	MOVQ  out+48(FP), R8
	MOVQ  CX, R11
	SHRQ  $4, R11   // full 16-element chunks
	ANDQ  $15, CX   // tail length
	LEAQ  gathermask<>(SB), DX
	MOVQ  $16, AX
	SUBQ  CX, AX
	VMOVDQU (DX)(AX*4), Y10   // tail masks, lanes 0-7
	VMOVDQU 32(DX)(AX*4), Y11 // and 8-15
	MOVQ  dim+24(FP), CX
	SHLQ  $2, CX    // vector bytes

	// The first lines, up to four, of every node.
	MOVQ CX, DX
	CMPQ DX, $256
	JLE  first
	MOVQ $256, DX

first:
	MOVQ BX, R12
	MOVQ R10, R13

firstnode:
	TESTQ R13, R13
	JZ    firstdone
	NODEADDR((R12), AX)
	LEAQ  (AX)(DX*1), R14
	ANDQ  $-64, AX

firstline:
	PREFETCHT0 (AX)
	ADDQ       $64, AX
	CMPQ       AX, R14
	JLT        firstline
	ADDQ       $4, R12
	DECQ       R13
	JMP        firstnode

firstdone:
	// The whole of the first group.
	MOVQ BX, R12
	MOVQ R10, R13
	CMPQ R13, $4
	JLE  pf0node
	MOVQ $4, R13

pf0node:
	TESTQ R13, R13
	JZ    group
	NODEADDR((R12), AX)
	LEAQ  (AX)(CX*1), DX
	ANDQ  $-64, AX

pf0line:
	PREFETCHT0 (AX)
	ADDQ       $64, AX
	CMPQ       AX, DX
	JLT        pf0line
	ADDQ       $4, R12
	DECQ       R13
	JMP        pf0node

group:
	CMPQ R10, $4
	JLT  single

	// The whole of the next group, nodes[4 : min(8, n)].
	LEAQ 16(BX), R12
	MOVQ R10, R13
	SUBQ $4, R13
	CMPQ R13, $4
	JLE  pfnode
	MOVQ $4, R13

pfnode:
	TESTQ R13, R13
	JZ    rows
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

rows:
	NODEADDR(0(BX), R12)
	NODEADDR(4(BX), R13)
	NODEADDR(8(BX), R14)
	NODEADDR(12(BX), R15)
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	XORQ   AX, AX
	MOVQ   R11, DX
	TESTQ  DX, DX
	JZ     tail4

loop4:
	VMOVUPS     (SI)(AX*1), Y8
	VMOVUPS     32(SI)(AX*1), Y9
	VFMADD231PS (R12)(AX*1), Y8, Y0
	VFMADD231PS 32(R12)(AX*1), Y9, Y1
	VFMADD231PS (R13)(AX*1), Y8, Y2
	VFMADD231PS 32(R13)(AX*1), Y9, Y3
	VFMADD231PS (R14)(AX*1), Y8, Y4
	VFMADD231PS 32(R14)(AX*1), Y9, Y5
	VFMADD231PS (R15)(AX*1), Y8, Y6
	VFMADD231PS 32(R15)(AX*1), Y9, Y7
	ADDQ        $64, AX
	DECQ        DX
	JNZ         loop4

tail4:
	VPTEST      Y10, Y10
	JZ          sum4
	VMASKMOVPS  (SI)(AX*1), Y10, Y8
	VMASKMOVPS  32(SI)(AX*1), Y11, Y9
	VMASKMOVPS  (R12)(AX*1), Y10, Y12
	VMASKMOVPS  32(R12)(AX*1), Y11, Y13
	VFMADD231PS Y12, Y8, Y0
	VFMADD231PS Y13, Y9, Y1
	VMASKMOVPS  (R13)(AX*1), Y10, Y12
	VMASKMOVPS  32(R13)(AX*1), Y11, Y13
	VFMADD231PS Y12, Y8, Y2
	VFMADD231PS Y13, Y9, Y3
	VMASKMOVPS  (R14)(AX*1), Y10, Y12
	VMASKMOVPS  32(R14)(AX*1), Y11, Y13
	VFMADD231PS Y12, Y8, Y4
	VFMADD231PS Y13, Y9, Y5
	VMASKMOVPS  (R15)(AX*1), Y10, Y12
	VMASKMOVPS  32(R15)(AX*1), Y11, Y13
	VFMADD231PS Y12, Y8, Y6
	VFMADD231PS Y13, Y9, Y7

sum4:
	HSUM256G(Y0, X0, Y1, X12)
	HSUM256G(Y2, X2, Y3, X12)
	HSUM256G(Y4, X4, Y5, X12)
	HSUM256G(Y6, X6, Y7, X12)
	VMOVSS X0, 0(R8)
	VMOVSS X2, 4(R8)
	VMOVSS X4, 8(R8)
	VMOVSS X6, 12(R8)
	ADDQ   $16, R8
	ADDQ   $16, BX
	SUBQ   $4, R10
	JMP    group

single:
	TESTQ  R10, R10
	JZ     done
	NODEADDR((BX), R12)
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	XORQ   AX, AX
	MOVQ   R11, DX
	TESTQ  DX, DX
	JZ     tail1

loop1:
	VMOVUPS     (SI)(AX*1), Y8
	VMOVUPS     32(SI)(AX*1), Y9
	VFMADD231PS (R12)(AX*1), Y8, Y0
	VFMADD231PS 32(R12)(AX*1), Y9, Y1
	ADDQ        $64, AX
	DECQ        DX
	JNZ         loop1

tail1:
	VPTEST      Y10, Y10
	JZ          sum1
	VMASKMOVPS  (SI)(AX*1), Y10, Y8
	VMASKMOVPS  32(SI)(AX*1), Y11, Y9
	VMASKMOVPS  (R12)(AX*1), Y10, Y12
	VMASKMOVPS  32(R12)(AX*1), Y11, Y13
	VFMADD231PS Y12, Y8, Y0
	VFMADD231PS Y13, Y9, Y1

sum1:
	HSUM256G(Y0, X0, Y1, X12)
	VMOVSS X0, (R8)
	ADDQ   $4, R8
	ADDQ   $4, BX
	DECQ   R10
	JMP    single

done:
	VZEROUPPER
	RET
