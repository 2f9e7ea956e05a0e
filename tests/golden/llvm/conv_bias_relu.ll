; ModuleID = "plaidc"
target triple = "unknown-unknown-unknown"
target datalayout = ""

define internal void @"gemm"(ptr noalias %"A", ptr noalias %"B", ptr noalias %"C", ptr noalias %"scratch", i64 %"first", i64 %"last") "prefer-vector-width"="512"
{
entry:
  %"i0.slot" = alloca i64
  %"p.slot" = alloca i64
  %"c0_0" = alloca <16 x float>
  %"c1_0" = alloca <16 x float>
  %"c2_0" = alloca <16 x float>
  %"c3_0" = alloca <16 x float>
  %"c4_0" = alloca <16 x float>
  %"c5_0" = alloca <16 x float>
  %"c6_0" = alloca <16 x float>
  %"c7_0" = alloca <16 x float>
  %"c8_0" = alloca <16 x float>
  %"c9_0" = alloca <16 x float>
  %"c10_0" = alloca <16 x float>
  %"c11_0" = alloca <16 x float>
  %"c12_0" = alloca <16 x float>
  %"c13_0" = alloca <16 x float>
  %"k.slot" = alloca i64
  br label %"start"
start:
  ; micro-kernel C += A B (C = A B in a split reduction's first call): 14x16x8 fp32, A strides (128, 1), B strides (16, 1), C row stride 16; 14x16 register block
  store i64 0, ptr %"i0.slot"
  br label %"i0.head"
i0.head:
  %"i0" = load i64, ptr %"i0.slot"
  %".11" = icmp slt i64 %"i0", 14
  br i1 %".11", label %"i0.body", label %"i0.exit"
i0.body:
  %"arow0" = mul i64 %"i0", 128
  %".14" = mul i64 %"i0", 128
  %"arow1" = add i64 %".14", 128
  %".16" = mul i64 %"i0", 128
  %"arow2" = add i64 %".16", 256
  %".18" = mul i64 %"i0", 128
  %"arow3" = add i64 %".18", 384
  %".20" = mul i64 %"i0", 128
  %"arow4" = add i64 %".20", 512
  %".22" = mul i64 %"i0", 128
  %"arow5" = add i64 %".22", 640
  %".24" = mul i64 %"i0", 128
  %"arow6" = add i64 %".24", 768
  %".26" = mul i64 %"i0", 128
  %"arow7" = add i64 %".26", 896
  %".28" = mul i64 %"i0", 128
  %"arow8" = add i64 %".28", 1024
  %".30" = mul i64 %"i0", 128
  %"arow9" = add i64 %".30", 1152
  %".32" = mul i64 %"i0", 128
  %"arow10" = add i64 %".32", 1280
  %".34" = mul i64 %"i0", 128
  %"arow11" = add i64 %".34", 1408
  %".36" = mul i64 %"i0", 128
  %"arow12" = add i64 %".36", 1536
  %".38" = mul i64 %"i0", 128
  %"arow13" = add i64 %".38", 1664
  store i64 0, ptr %"p.slot"
  br label %"p.head"
i0.exit:
  ret void
p.head:
  %"p" = load i64, ptr %"p.slot"
  %".42" = icmp slt i64 %"p", 1
  br i1 %".42", label %"p.body", label %"p.exit"
p.body:
  %".44" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".45" = shufflevector <16 x float> %".44", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".45", ptr %"c0_0"
  %".47" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".48" = shufflevector <16 x float> %".47", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".48", ptr %"c1_0"
  %".50" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".51" = shufflevector <16 x float> %".50", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".51", ptr %"c2_0"
  %".53" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".54" = shufflevector <16 x float> %".53", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".54", ptr %"c3_0"
  %".56" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".57" = shufflevector <16 x float> %".56", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".57", ptr %"c4_0"
  %".59" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".60" = shufflevector <16 x float> %".59", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".60", ptr %"c5_0"
  %".62" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".63" = shufflevector <16 x float> %".62", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".63", ptr %"c6_0"
  %".65" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".66" = shufflevector <16 x float> %".65", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".66", ptr %"c7_0"
  %".68" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".69" = shufflevector <16 x float> %".68", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".69", ptr %"c8_0"
  %".71" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".72" = shufflevector <16 x float> %".71", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".72", ptr %"c9_0"
  %".74" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".75" = shufflevector <16 x float> %".74", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".75", ptr %"c10_0"
  %".77" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".78" = shufflevector <16 x float> %".77", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".78", ptr %"c11_0"
  %".80" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".81" = shufflevector <16 x float> %".80", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".81", ptr %"c12_0"
  %".83" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".84" = shufflevector <16 x float> %".83", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".84", ptr %"c13_0"
  store i64 0, ptr %"k.slot"
  br label %"k.head"
p.exit:
  %".438" = add i64 %"i0", 14
  store i64 %".438", ptr %"i0.slot"
  br label %"i0.head"
k.head:
  %"k" = load i64, ptr %"k.slot"
  %".88" = icmp slt i64 %"k", 8
  br i1 %".88", label %"k.body", label %"k.exit"
k.body:
  %".90" = mul i64 %"k", 16
  %".91" = mul i64 %"p", 16
  %".92" = add i64 %".90", %".91"
  %".93" = getelementptr inbounds float, ptr %"B", i64 %".92"
  %"b0" = load <16 x float>, ptr %".93", align 4
  %".95" = add i64 %"arow0", %"k"
  %".96" = getelementptr inbounds float, ptr %"A", i64 %".95"
  %".97" = load float, ptr %".96", align 4
  %".98" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".97", i32 0
  %"a0" = shufflevector <16 x float> %".98", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".100" = load <16 x float>, ptr %"c0_0"
  %".101" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a0", <16 x float> %"b0", <16 x float> %".100")
  store <16 x float> %".101", ptr %"c0_0"
  %".103" = add i64 %"arow1", %"k"
  %".104" = getelementptr inbounds float, ptr %"A", i64 %".103"
  %".105" = load float, ptr %".104", align 4
  %".106" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".105", i32 0
  %"a1" = shufflevector <16 x float> %".106", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".108" = load <16 x float>, ptr %"c1_0"
  %".109" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a1", <16 x float> %"b0", <16 x float> %".108")
  store <16 x float> %".109", ptr %"c1_0"
  %".111" = add i64 %"arow2", %"k"
  %".112" = getelementptr inbounds float, ptr %"A", i64 %".111"
  %".113" = load float, ptr %".112", align 4
  %".114" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".113", i32 0
  %"a2" = shufflevector <16 x float> %".114", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".116" = load <16 x float>, ptr %"c2_0"
  %".117" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a2", <16 x float> %"b0", <16 x float> %".116")
  store <16 x float> %".117", ptr %"c2_0"
  %".119" = add i64 %"arow3", %"k"
  %".120" = getelementptr inbounds float, ptr %"A", i64 %".119"
  %".121" = load float, ptr %".120", align 4
  %".122" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".121", i32 0
  %"a3" = shufflevector <16 x float> %".122", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".124" = load <16 x float>, ptr %"c3_0"
  %".125" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a3", <16 x float> %"b0", <16 x float> %".124")
  store <16 x float> %".125", ptr %"c3_0"
  %".127" = add i64 %"arow4", %"k"
  %".128" = getelementptr inbounds float, ptr %"A", i64 %".127"
  %".129" = load float, ptr %".128", align 4
  %".130" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".129", i32 0
  %"a4" = shufflevector <16 x float> %".130", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".132" = load <16 x float>, ptr %"c4_0"
  %".133" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a4", <16 x float> %"b0", <16 x float> %".132")
  store <16 x float> %".133", ptr %"c4_0"
  %".135" = add i64 %"arow5", %"k"
  %".136" = getelementptr inbounds float, ptr %"A", i64 %".135"
  %".137" = load float, ptr %".136", align 4
  %".138" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".137", i32 0
  %"a5" = shufflevector <16 x float> %".138", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".140" = load <16 x float>, ptr %"c5_0"
  %".141" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a5", <16 x float> %"b0", <16 x float> %".140")
  store <16 x float> %".141", ptr %"c5_0"
  %".143" = add i64 %"arow6", %"k"
  %".144" = getelementptr inbounds float, ptr %"A", i64 %".143"
  %".145" = load float, ptr %".144", align 4
  %".146" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".145", i32 0
  %"a6" = shufflevector <16 x float> %".146", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".148" = load <16 x float>, ptr %"c6_0"
  %".149" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a6", <16 x float> %"b0", <16 x float> %".148")
  store <16 x float> %".149", ptr %"c6_0"
  %".151" = add i64 %"arow7", %"k"
  %".152" = getelementptr inbounds float, ptr %"A", i64 %".151"
  %".153" = load float, ptr %".152", align 4
  %".154" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".153", i32 0
  %"a7" = shufflevector <16 x float> %".154", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".156" = load <16 x float>, ptr %"c7_0"
  %".157" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a7", <16 x float> %"b0", <16 x float> %".156")
  store <16 x float> %".157", ptr %"c7_0"
  %".159" = add i64 %"arow8", %"k"
  %".160" = getelementptr inbounds float, ptr %"A", i64 %".159"
  %".161" = load float, ptr %".160", align 4
  %".162" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".161", i32 0
  %"a8" = shufflevector <16 x float> %".162", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".164" = load <16 x float>, ptr %"c8_0"
  %".165" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a8", <16 x float> %"b0", <16 x float> %".164")
  store <16 x float> %".165", ptr %"c8_0"
  %".167" = add i64 %"arow9", %"k"
  %".168" = getelementptr inbounds float, ptr %"A", i64 %".167"
  %".169" = load float, ptr %".168", align 4
  %".170" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".169", i32 0
  %"a9" = shufflevector <16 x float> %".170", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".172" = load <16 x float>, ptr %"c9_0"
  %".173" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a9", <16 x float> %"b0", <16 x float> %".172")
  store <16 x float> %".173", ptr %"c9_0"
  %".175" = add i64 %"arow10", %"k"
  %".176" = getelementptr inbounds float, ptr %"A", i64 %".175"
  %".177" = load float, ptr %".176", align 4
  %".178" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".177", i32 0
  %"a10" = shufflevector <16 x float> %".178", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".180" = load <16 x float>, ptr %"c10_0"
  %".181" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a10", <16 x float> %"b0", <16 x float> %".180")
  store <16 x float> %".181", ptr %"c10_0"
  %".183" = add i64 %"arow11", %"k"
  %".184" = getelementptr inbounds float, ptr %"A", i64 %".183"
  %".185" = load float, ptr %".184", align 4
  %".186" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".185", i32 0
  %"a11" = shufflevector <16 x float> %".186", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".188" = load <16 x float>, ptr %"c11_0"
  %".189" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a11", <16 x float> %"b0", <16 x float> %".188")
  store <16 x float> %".189", ptr %"c11_0"
  %".191" = add i64 %"arow12", %"k"
  %".192" = getelementptr inbounds float, ptr %"A", i64 %".191"
  %".193" = load float, ptr %".192", align 4
  %".194" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".193", i32 0
  %"a12" = shufflevector <16 x float> %".194", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".196" = load <16 x float>, ptr %"c12_0"
  %".197" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a12", <16 x float> %"b0", <16 x float> %".196")
  store <16 x float> %".197", ptr %"c12_0"
  %".199" = add i64 %"arow13", %"k"
  %".200" = getelementptr inbounds float, ptr %"A", i64 %".199"
  %".201" = load float, ptr %".200", align 4
  %".202" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".201", i32 0
  %"a13" = shufflevector <16 x float> %".202", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".204" = load <16 x float>, ptr %"c13_0"
  %".205" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a13", <16 x float> %"b0", <16 x float> %".204")
  store <16 x float> %".205", ptr %"c13_0"
  %".207" = add i64 %"k", 1
  store i64 %".207", ptr %"k.slot"
  br label %"k.head"
k.exit:
  %".210" = icmp eq i64 %"first", 0
  br i1 %".210", label %"k.exit.if", label %"k.exit.endif"
k.exit.if:
  %".212" = load <16 x float>, ptr %"c0_0"
  %".213" = mul i64 %"i0", 16
  %".214" = mul i64 %"p", 16
  %".215" = add i64 %".213", %".214"
  %".216" = getelementptr inbounds float, ptr %"C", i64 %".215"
  %".217" = load <16 x float>, ptr %".216", align 4
  %".218" = fadd <16 x float> %".212", %".217"
  store <16 x float> %".218", ptr %"c0_0"
  %".220" = load <16 x float>, ptr %"c1_0"
  %".221" = mul i64 %"i0", 16
  %".222" = mul i64 %"p", 16
  %".223" = add i64 %".221", %".222"
  %".224" = add i64 %".223", 16
  %".225" = getelementptr inbounds float, ptr %"C", i64 %".224"
  %".226" = load <16 x float>, ptr %".225", align 4
  %".227" = fadd <16 x float> %".220", %".226"
  store <16 x float> %".227", ptr %"c1_0"
  %".229" = load <16 x float>, ptr %"c2_0"
  %".230" = mul i64 %"i0", 16
  %".231" = mul i64 %"p", 16
  %".232" = add i64 %".230", %".231"
  %".233" = add i64 %".232", 32
  %".234" = getelementptr inbounds float, ptr %"C", i64 %".233"
  %".235" = load <16 x float>, ptr %".234", align 4
  %".236" = fadd <16 x float> %".229", %".235"
  store <16 x float> %".236", ptr %"c2_0"
  %".238" = load <16 x float>, ptr %"c3_0"
  %".239" = mul i64 %"i0", 16
  %".240" = mul i64 %"p", 16
  %".241" = add i64 %".239", %".240"
  %".242" = add i64 %".241", 48
  %".243" = getelementptr inbounds float, ptr %"C", i64 %".242"
  %".244" = load <16 x float>, ptr %".243", align 4
  %".245" = fadd <16 x float> %".238", %".244"
  store <16 x float> %".245", ptr %"c3_0"
  %".247" = load <16 x float>, ptr %"c4_0"
  %".248" = mul i64 %"i0", 16
  %".249" = mul i64 %"p", 16
  %".250" = add i64 %".248", %".249"
  %".251" = add i64 %".250", 64
  %".252" = getelementptr inbounds float, ptr %"C", i64 %".251"
  %".253" = load <16 x float>, ptr %".252", align 4
  %".254" = fadd <16 x float> %".247", %".253"
  store <16 x float> %".254", ptr %"c4_0"
  %".256" = load <16 x float>, ptr %"c5_0"
  %".257" = mul i64 %"i0", 16
  %".258" = mul i64 %"p", 16
  %".259" = add i64 %".257", %".258"
  %".260" = add i64 %".259", 80
  %".261" = getelementptr inbounds float, ptr %"C", i64 %".260"
  %".262" = load <16 x float>, ptr %".261", align 4
  %".263" = fadd <16 x float> %".256", %".262"
  store <16 x float> %".263", ptr %"c5_0"
  %".265" = load <16 x float>, ptr %"c6_0"
  %".266" = mul i64 %"i0", 16
  %".267" = mul i64 %"p", 16
  %".268" = add i64 %".266", %".267"
  %".269" = add i64 %".268", 96
  %".270" = getelementptr inbounds float, ptr %"C", i64 %".269"
  %".271" = load <16 x float>, ptr %".270", align 4
  %".272" = fadd <16 x float> %".265", %".271"
  store <16 x float> %".272", ptr %"c6_0"
  %".274" = load <16 x float>, ptr %"c7_0"
  %".275" = mul i64 %"i0", 16
  %".276" = mul i64 %"p", 16
  %".277" = add i64 %".275", %".276"
  %".278" = add i64 %".277", 112
  %".279" = getelementptr inbounds float, ptr %"C", i64 %".278"
  %".280" = load <16 x float>, ptr %".279", align 4
  %".281" = fadd <16 x float> %".274", %".280"
  store <16 x float> %".281", ptr %"c7_0"
  %".283" = load <16 x float>, ptr %"c8_0"
  %".284" = mul i64 %"i0", 16
  %".285" = mul i64 %"p", 16
  %".286" = add i64 %".284", %".285"
  %".287" = add i64 %".286", 128
  %".288" = getelementptr inbounds float, ptr %"C", i64 %".287"
  %".289" = load <16 x float>, ptr %".288", align 4
  %".290" = fadd <16 x float> %".283", %".289"
  store <16 x float> %".290", ptr %"c8_0"
  %".292" = load <16 x float>, ptr %"c9_0"
  %".293" = mul i64 %"i0", 16
  %".294" = mul i64 %"p", 16
  %".295" = add i64 %".293", %".294"
  %".296" = add i64 %".295", 144
  %".297" = getelementptr inbounds float, ptr %"C", i64 %".296"
  %".298" = load <16 x float>, ptr %".297", align 4
  %".299" = fadd <16 x float> %".292", %".298"
  store <16 x float> %".299", ptr %"c9_0"
  %".301" = load <16 x float>, ptr %"c10_0"
  %".302" = mul i64 %"i0", 16
  %".303" = mul i64 %"p", 16
  %".304" = add i64 %".302", %".303"
  %".305" = add i64 %".304", 160
  %".306" = getelementptr inbounds float, ptr %"C", i64 %".305"
  %".307" = load <16 x float>, ptr %".306", align 4
  %".308" = fadd <16 x float> %".301", %".307"
  store <16 x float> %".308", ptr %"c10_0"
  %".310" = load <16 x float>, ptr %"c11_0"
  %".311" = mul i64 %"i0", 16
  %".312" = mul i64 %"p", 16
  %".313" = add i64 %".311", %".312"
  %".314" = add i64 %".313", 176
  %".315" = getelementptr inbounds float, ptr %"C", i64 %".314"
  %".316" = load <16 x float>, ptr %".315", align 4
  %".317" = fadd <16 x float> %".310", %".316"
  store <16 x float> %".317", ptr %"c11_0"
  %".319" = load <16 x float>, ptr %"c12_0"
  %".320" = mul i64 %"i0", 16
  %".321" = mul i64 %"p", 16
  %".322" = add i64 %".320", %".321"
  %".323" = add i64 %".322", 192
  %".324" = getelementptr inbounds float, ptr %"C", i64 %".323"
  %".325" = load <16 x float>, ptr %".324", align 4
  %".326" = fadd <16 x float> %".319", %".325"
  store <16 x float> %".326", ptr %"c12_0"
  %".328" = load <16 x float>, ptr %"c13_0"
  %".329" = mul i64 %"i0", 16
  %".330" = mul i64 %"p", 16
  %".331" = add i64 %".329", %".330"
  %".332" = add i64 %".331", 208
  %".333" = getelementptr inbounds float, ptr %"C", i64 %".332"
  %".334" = load <16 x float>, ptr %".333", align 4
  %".335" = fadd <16 x float> %".328", %".334"
  store <16 x float> %".335", ptr %"c13_0"
  br label %"k.exit.endif"
k.exit.endif:
  %".338" = load <16 x float>, ptr %"c0_0"
  %".339" = mul i64 %"i0", 16
  %".340" = mul i64 %"p", 16
  %".341" = add i64 %".339", %".340"
  %".342" = getelementptr inbounds float, ptr %"C", i64 %".341"
  store <16 x float> %".338", ptr %".342", align 4
  %".344" = load <16 x float>, ptr %"c1_0"
  %".345" = mul i64 %"i0", 16
  %".346" = mul i64 %"p", 16
  %".347" = add i64 %".345", %".346"
  %".348" = add i64 %".347", 16
  %".349" = getelementptr inbounds float, ptr %"C", i64 %".348"
  store <16 x float> %".344", ptr %".349", align 4
  %".351" = load <16 x float>, ptr %"c2_0"
  %".352" = mul i64 %"i0", 16
  %".353" = mul i64 %"p", 16
  %".354" = add i64 %".352", %".353"
  %".355" = add i64 %".354", 32
  %".356" = getelementptr inbounds float, ptr %"C", i64 %".355"
  store <16 x float> %".351", ptr %".356", align 4
  %".358" = load <16 x float>, ptr %"c3_0"
  %".359" = mul i64 %"i0", 16
  %".360" = mul i64 %"p", 16
  %".361" = add i64 %".359", %".360"
  %".362" = add i64 %".361", 48
  %".363" = getelementptr inbounds float, ptr %"C", i64 %".362"
  store <16 x float> %".358", ptr %".363", align 4
  %".365" = load <16 x float>, ptr %"c4_0"
  %".366" = mul i64 %"i0", 16
  %".367" = mul i64 %"p", 16
  %".368" = add i64 %".366", %".367"
  %".369" = add i64 %".368", 64
  %".370" = getelementptr inbounds float, ptr %"C", i64 %".369"
  store <16 x float> %".365", ptr %".370", align 4
  %".372" = load <16 x float>, ptr %"c5_0"
  %".373" = mul i64 %"i0", 16
  %".374" = mul i64 %"p", 16
  %".375" = add i64 %".373", %".374"
  %".376" = add i64 %".375", 80
  %".377" = getelementptr inbounds float, ptr %"C", i64 %".376"
  store <16 x float> %".372", ptr %".377", align 4
  %".379" = load <16 x float>, ptr %"c6_0"
  %".380" = mul i64 %"i0", 16
  %".381" = mul i64 %"p", 16
  %".382" = add i64 %".380", %".381"
  %".383" = add i64 %".382", 96
  %".384" = getelementptr inbounds float, ptr %"C", i64 %".383"
  store <16 x float> %".379", ptr %".384", align 4
  %".386" = load <16 x float>, ptr %"c7_0"
  %".387" = mul i64 %"i0", 16
  %".388" = mul i64 %"p", 16
  %".389" = add i64 %".387", %".388"
  %".390" = add i64 %".389", 112
  %".391" = getelementptr inbounds float, ptr %"C", i64 %".390"
  store <16 x float> %".386", ptr %".391", align 4
  %".393" = load <16 x float>, ptr %"c8_0"
  %".394" = mul i64 %"i0", 16
  %".395" = mul i64 %"p", 16
  %".396" = add i64 %".394", %".395"
  %".397" = add i64 %".396", 128
  %".398" = getelementptr inbounds float, ptr %"C", i64 %".397"
  store <16 x float> %".393", ptr %".398", align 4
  %".400" = load <16 x float>, ptr %"c9_0"
  %".401" = mul i64 %"i0", 16
  %".402" = mul i64 %"p", 16
  %".403" = add i64 %".401", %".402"
  %".404" = add i64 %".403", 144
  %".405" = getelementptr inbounds float, ptr %"C", i64 %".404"
  store <16 x float> %".400", ptr %".405", align 4
  %".407" = load <16 x float>, ptr %"c10_0"
  %".408" = mul i64 %"i0", 16
  %".409" = mul i64 %"p", 16
  %".410" = add i64 %".408", %".409"
  %".411" = add i64 %".410", 160
  %".412" = getelementptr inbounds float, ptr %"C", i64 %".411"
  store <16 x float> %".407", ptr %".412", align 4
  %".414" = load <16 x float>, ptr %"c11_0"
  %".415" = mul i64 %"i0", 16
  %".416" = mul i64 %"p", 16
  %".417" = add i64 %".415", %".416"
  %".418" = add i64 %".417", 176
  %".419" = getelementptr inbounds float, ptr %"C", i64 %".418"
  store <16 x float> %".414", ptr %".419", align 4
  %".421" = load <16 x float>, ptr %"c12_0"
  %".422" = mul i64 %"i0", 16
  %".423" = mul i64 %"p", 16
  %".424" = add i64 %".422", %".423"
  %".425" = add i64 %".424", 192
  %".426" = getelementptr inbounds float, ptr %"C", i64 %".425"
  store <16 x float> %".421", ptr %".426", align 4
  %".428" = load <16 x float>, ptr %"c13_0"
  %".429" = mul i64 %"i0", 16
  %".430" = mul i64 %"p", 16
  %".431" = add i64 %".429", %".430"
  %".432" = add i64 %".431", 208
  %".433" = getelementptr inbounds float, ptr %"C", i64 %".432"
  store <16 x float> %".428", ptr %".433", align 4
  %".435" = add i64 %"p", 1
  store i64 %".435", ptr %"p.slot"
  br label %"p.head"
}

define internal void @"kernel_0"(ptr noalias %"X_I_1", ptr noalias %"X_I_2", ptr noalias %"X_I_0", ptr noalias %"X_T6") "prefer-vector-width"="512"
{
entry:
  %"y.team" = alloca [65 x i32]
  %"y.ctx" = alloca {i64, i64, ptr, ptr, ptr, ptr, ptr}
  br label %"start"
start:
  ; kernel_0
  ; kernel_0(X_I_1,X_I_2)+kernel_1(X_T3,X_I_0)+kernel_2(X_T4,X_T0)+kernel_3(X_T5,X_T0,X_T4)
  %".8" = getelementptr inbounds {i64, i64, ptr, ptr, ptr, ptr, ptr}, ptr %"y.ctx", i32 0, i32 0
  store i64 0, ptr %".8"
  %".10" = getelementptr inbounds {i64, i64, ptr, ptr, ptr, ptr, ptr}, ptr %"y.ctx", i32 0, i32 1
  store i64 14, ptr %".10"
  %".12" = getelementptr inbounds {i64, i64, ptr, ptr, ptr, ptr, ptr}, ptr %"y.ctx", i32 0, i32 2
  store ptr %"X_I_1", ptr %".12"
  %".14" = getelementptr inbounds {i64, i64, ptr, ptr, ptr, ptr, ptr}, ptr %"y.ctx", i32 0, i32 3
  store ptr %"X_I_2", ptr %".14"
  %".16" = getelementptr inbounds {i64, i64, ptr, ptr, ptr, ptr, ptr}, ptr %"y.ctx", i32 0, i32 4
  store ptr %"X_I_0", ptr %".16"
  %".18" = getelementptr inbounds {i64, i64, ptr, ptr, ptr, ptr, ptr}, ptr %"y.ctx", i32 0, i32 5
  store ptr %"X_T6", ptr %".18"
  %".20" = getelementptr inbounds {i64, i64, ptr, ptr, ptr, ptr, ptr}, ptr %"y.ctx", i32 0, i32 6
  store ptr %"y.team", ptr %".20"
  %".22" = call i32 @"plaidc.team_wanted"(ptr @"plaidc.shared_cpu")
  %".23" = icmp ne i32 %".22", 0
  %".24" = select  i1 %".23", i32 0, i32 1
  call void @"GOMP_parallel"(void (ptr)* @"kernel_0.parallel.1", ptr %"y.ctx", i32 %".24", i32 0)
  br i1 %".23", label %"start.if", label %"start.endif"
start.if:
  call void @"plaidc.team_check"(ptr @"plaidc.shared_cpu", ptr %"y.team", i32 64)
  br label %"start.endif"
start.endif:
  ret void
}

define internal void @"plaidc_main"(ptr noalias %"X_I_0", ptr noalias %"X_I_1", ptr noalias %"X_I_2", ptr noalias %"X_T6", ptr noalias %"plaidc_status") "prefer-vector-width"="512"
{
entry:
  br label %"start"
start:
  ; the whole program
  ; main
  call void @"kernel_0"(ptr %"X_I_1", ptr %"X_I_2", ptr %"X_I_0", ptr %"X_T6")
  ret void
}

declare <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %".1", <16 x float> %".2", <16 x float> %".3")

define internal void @"kernel_0.parallel.1"(ptr %".1") "prefer-vector-width"="512"
{
entry:
  %"y.it.slot" = alloca i64
  %"gemm_scratch" = alloca [1 x float], align 64
  %"X_01" = alloca [224 x float], align 64
  %"i.slot" = alloca i64
  %"j.slot" = alloca i64
  %"i2_1.slot" = alloca i64
  %"i4_1.slot" = alloca i64
  br label %"start"
start:
  %".3" = getelementptr inbounds {i64, i64, ptr, ptr, ptr, ptr, ptr}, ptr %".1", i32 0, i32 0
  %".4" = load i64, ptr %".3"
  %".5" = getelementptr inbounds {i64, i64, ptr, ptr, ptr, ptr, ptr}, ptr %".1", i32 0, i32 1
  %".6" = load i64, ptr %".5"
  %".7" = getelementptr inbounds {i64, i64, ptr, ptr, ptr, ptr, ptr}, ptr %".1", i32 0, i32 2
  %".8" = load ptr, ptr %".7"
  %".9" = getelementptr inbounds {i64, i64, ptr, ptr, ptr, ptr, ptr}, ptr %".1", i32 0, i32 3
  %".10" = load ptr, ptr %".9"
  %".11" = getelementptr inbounds {i64, i64, ptr, ptr, ptr, ptr, ptr}, ptr %".1", i32 0, i32 4
  %".12" = load ptr, ptr %".11"
  %".13" = getelementptr inbounds {i64, i64, ptr, ptr, ptr, ptr, ptr}, ptr %".1", i32 0, i32 5
  %".14" = load ptr, ptr %".13"
  %".15" = getelementptr inbounds {i64, i64, ptr, ptr, ptr, ptr, ptr}, ptr %".1", i32 0, i32 6
  %".16" = load ptr, ptr %".15"
  call void @"plaidc.team_mark"(ptr %".16")
  %".18" = call i32 @"omp_get_thread_num"()
  %".19" = sext i32 %".18" to i64
  %".20" = call i32 @"omp_get_num_threads"()
  %".21" = sext i32 %".20" to i64
  %".22" = sub i64 %".6", %".4"
  %".23" = add i64 %".22", 0
  %".24" = sdiv i64 %".23", 1
  %".25" = icmp slt i64 %".24", 0
  %".26" = select  i1 %".25", i64 0, i64 %".24"
  %".27" = sub i64 %".21", 1
  %".28" = add i64 %".26", %".27"
  %".29" = sdiv i64 %".28", %".21"
  %".30" = mul i64 %".19", %".29"
  %".31" = add i64 %".30", %".29"
  %".32" = icmp slt i64 %".31", %".26"
  %".33" = select  i1 %".32", i64 %".31", i64 %".26"
  store i64 %".30", ptr %"y.it.slot"
  br label %"y.it.head"
y.it.head:
  %"y.it" = load i64, ptr %"y.it.slot"
  %".36" = icmp slt i64 %"y.it", %".33"
  br i1 %".36", label %"y.it.body", label %"y.it.exit"
y.it.body:
  %".38" = mul i64 %"y.it", 1
  %"y" = add i64 %".4", %".38"
  ; kernel_0(X_I_1,X_I_2)+kernel_1(X_T3,X_I_0)+kernel_2(X_T4,X_T0)+kernel_3(X_T5,X_T0,X_T4)
  ; kernel_0(X_I_1,X_I_2)
  store i64 0, ptr %"i.slot"
  br label %"i.head"
y.it.exit:
  ret void
i.head:
  %"i" = load i64, ptr %"i.slot"
  %".44" = icmp slt i64 %"i", 3
  br i1 %".44", label %"i.body", label %"i.exit"
i.body:
  store i64 0, ptr %"j.slot"
  br label %"j.head"
i.exit:
  ; kernel_1(X_T3,X_I_0)+kernel_2(X_T4,X_T0)+kernel_3(X_T5,X_T0,X_T4)
  store i64 0, ptr %"i2_1.slot"
  br label %"i2_1.head"
j.head:
  %"j" = load i64, ptr %"j.slot"
  %".48" = icmp slt i64 %"j", 3
  br i1 %".48", label %"j.body", label %"j.exit"
j.body:
  ; #0
  %".51" = mul i64 %"i", 128
  %".52" = mul i64 %"j", 8
  %".53" = add i64 %".51", %".52"
  %".54" = mul i64 %"y", 8
  %".55" = add i64 %".53", %".54"
  %".56" = getelementptr inbounds float, ptr %".8", i64 %".55"
  %".57" = mul i64 %"i", 384
  %".58" = mul i64 %"j", 128
  %".59" = add i64 %".57", %".58"
  %".60" = getelementptr inbounds float, ptr %".10", i64 %".59"
  %".61" = icmp eq i64 %"i", 0
  %".62" = icmp eq i64 %"j", 0
  %".63" = and i1 %".61", %".62"
  %".64" = select  i1 %".63", i64 1, i64 0
  %".65" = icmp eq i64 %"i", 2
  %".66" = icmp eq i64 %"j", 2
  %".67" = and i1 %".65", %".66"
  %".68" = select  i1 %".67", i64 1, i64 0
  call void @"gemm"(ptr %".56", ptr %".60", ptr %"X_01", ptr %"gemm_scratch", i64 %".64", i64 %".68")
  %".70" = add i64 %"j", 1
  store i64 %".70", ptr %"j.slot"
  br label %"j.head"
j.exit:
  %".73" = add i64 %"i", 1
  store i64 %".73", ptr %"i.slot"
  br label %"i.head"
i2_1.head:
  %"i2_1" = load i64, ptr %"i2_1.slot"
  %".79" = icmp slt i64 %"i2_1", 14
  br i1 %".79", label %"i2_1.body", label %"i2_1.exit"
i2_1.body:
  store i64 0, ptr %"i4_1.slot"
  br label %"i4_1.head"
i2_1.exit:
  %".106" = add i64 %"y.it", 1
  store i64 %".106", ptr %"y.it.slot"
  br label %"y.it.head"
i4_1.head:
  %"i4_1" = load i64, ptr %"i4_1.slot"
  %".83" = icmp slt i64 %"i4_1", 16
  br i1 %".83", label %"i4_1.body", label %"i4_1.exit"
i4_1.body:
  %".85" = mul i64 %"i2_1", 16
  %".86" = add i64 %".85", %"i4_1"
  %".87" = getelementptr inbounds float, ptr %"X_01", i64 %".86"
  %"X_T3_1" = load float, ptr %".87", align 4
  %".89" = getelementptr inbounds float, ptr %".12", i64 %"i4_1"
  %"X_I_0_2" = load float, ptr %".89", align 4
  %"X_T4_1" = fadd float %"X_T3_1", %"X_I_0_2"
  %"X_T5_1" = fcmp olt float %"X_T4_1",              0x0
  %"X_T6_2" = select  i1 %"X_T5_1", float              0x0, float %"X_T4_1"
  %".94" = mul i64 %"i2_1", 224
  %".95" = add i64 %".94", %"i4_1"
  %".96" = mul i64 %"y", 16
  %".97" = add i64 %".95", %".96"
  %".98" = getelementptr inbounds float, ptr %".14", i64 %".97"
  store float %"X_T6_2", ptr %".98", align 4
  %".100" = add i64 %"i4_1", 1
  store i64 %".100", ptr %"i4_1.slot"
  br label %"i4_1.head", !llvm.loop !2
i4_1.exit:
  %".103" = add i64 %"i2_1", 1
  store i64 %".103", ptr %"i2_1.slot"
  br label %"i2_1.head"
}

define internal void @"plaidc.team_mark"(ptr %".1")
{
entry:
  %".3" = call i32 @"omp_get_thread_num"()
  %".4" = icmp eq i32 %".3", 0
  br i1 %".4", label %"entry.if", label %"entry.endif"
entry.if:
  %".6" = call i32 @"omp_get_num_threads"()
  %".7" = getelementptr inbounds i32, ptr %".1", i32 0
  store i32 %".6", ptr %".7"
  br label %"entry.endif"
entry.endif:
  %".10" = icmp slt i32 %".3", 64
  br i1 %".10", label %"entry.endif.if", label %"entry.endif.endif"
entry.endif.if:
  %".12" = call i32 @"sched_getcpu"()
  %".13" = add i32 %".3", 1
  %".14" = getelementptr inbounds i32, ptr %".1", i32 %".13"
  store i32 %".12", ptr %".14"
  br label %"entry.endif.endif"
entry.endif.endif:
  ret void
}

declare i32 @"omp_get_thread_num"()

declare i32 @"omp_get_num_threads"()

declare i32 @"sched_getcpu"()

declare void @"GOMP_parallel"(ptr %".1", ptr %".2", i32 %".3", i32 %".4")

@"plaidc.shared_cpu" = internal global [2 x i32] zeroinitializer, align 8
define internal i32 @"plaidc.team_wanted"(ptr %".1")
{
entry:
  %".3" = getelementptr inbounds i32, ptr %".1", i32 0
  %".4" = load atomic i32, ptr %".3" monotonic, align 4
  %".5" = icmp sgt i32 %".4", 0
  br i1 %".5", label %"serial", label %"threads"
serial:
  %".7" = sub i32 %".4", 1
  %".8" = getelementptr inbounds i32, ptr %".1", i32 0
  %".9" = atomicrmw xchg ptr %".8", i32 %".7" monotonic
  ret i32 0
threads:
  ret i32 1
}

define internal void @"plaidc.team_check"(ptr %".1", ptr %".2", i32 %".3")
{
entry:
  %".5" = getelementptr inbounds i32, ptr %".2", i32 0
  %".6" = load i32, ptr %".5"
  %".7" = icmp slt i32 %".6", 64
  %".8" = select  i1 %".7", i32 %".6", i32 64
  br label %"outer"
outer:
  %".10" = phi  i32 [0, %"entry"], [%".13", %"next"]
  %".11" = icmp slt i32 %".10", %".8"
  br i1 %".11", label %"inner_start", label %"done"
inner_start:
  %".13" = add i32 %".10", 1
  %".14" = getelementptr inbounds i32, ptr %".2", i32 %".13"
  %".15" = load i32, ptr %".14"
  br label %"inner"
inner:
  %".17" = phi  i32 [%".13", %"inner_start"], [%".27", %"step"]
  %".18" = icmp slt i32 %".17", %".8"
  br i1 %".18", label %"compare", label %"next"
compare:
  %".20" = add i32 %".17", 1
  %".21" = getelementptr inbounds i32, ptr %".2", i32 %".20"
  %".22" = load i32, ptr %".21"
  %".23" = icmp sge i32 %".15", 0
  %".24" = icmp eq i32 %".15", %".22"
  %".25" = and i1 %".23", %".24"
  br i1 %".25", label %"done", label %"step"
step:
  %".27" = add i32 %".17", 1
  br label %"inner"
next:
  br label %"outer"
done:
  %".30" = phi  i1 [0, %"outer"], [1, %"compare"]
  %".31" = getelementptr inbounds i32, ptr %".1", i32 1
  %".32" = load atomic i32, ptr %".31" monotonic, align 4
  %".33" = sdiv i32 %".3", 2
  %".34" = icmp slt i32 %".32", %".33"
  %".35" = mul i32 %".32", 2
  %".36" = select  i1 %".34", i32 %".35", i32 %".3"
  %".37" = icmp sle i32 %".32", 0
  %".38" = select  i1 %".37", i32 1, i32 %".36"
  %".39" = select  i1 %".30", i32 %".38", i32 0
  %".40" = getelementptr inbounds i32, ptr %".1", i32 1
  %".41" = atomicrmw xchg ptr %".40", i32 %".39" monotonic
  %".42" = getelementptr inbounds i32, ptr %".1", i32 0
  %".43" = atomicrmw xchg ptr %".42", i32 %".39" monotonic
  ret void
}

define void @"plaidc_entry"(ptr %".1") "prefer-vector-width"="512"
{
entry:
  %".3" = getelementptr inbounds ptr, ptr %".1", i64 0
  %".4" = load ptr, ptr %".3"
  %".5" = getelementptr inbounds ptr, ptr %".1", i64 1
  %".6" = load ptr, ptr %".5"
  %".7" = getelementptr inbounds ptr, ptr %".1", i64 2
  %".8" = load ptr, ptr %".7"
  %".9" = getelementptr inbounds ptr, ptr %".1", i64 3
  %".10" = load ptr, ptr %".9"
  %".11" = getelementptr inbounds ptr, ptr %".1", i64 4
  %".12" = load ptr, ptr %".11"
  call void @"plaidc_main"(ptr %".4", ptr %".6", ptr %".8", ptr %".10", ptr %".12")
  ret void
}

!0 = !{ !"llvm.loop.vectorize.enable", i1 1 }
!1 = !{ !"llvm.loop.unroll.disable" }
!2 = distinct !{ !2, !0, !1 }