; ModuleID = "plaidc"
target triple = "unknown-unknown-unknown"
target datalayout = ""

define internal void @"gemm"(ptr noalias %"A", ptr noalias %"B", ptr noalias %"C", ptr noalias %"scratch") "prefer-vector-width"="512"
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
  %"k.slot" = alloca i64
  %"p_1.slot" = alloca i64
  %"c0_0_1" = alloca <16 x float>
  %"c1_0_1" = alloca <16 x float>
  %"c2_0_1" = alloca <16 x float>
  %"c3_0_1" = alloca <16 x float>
  %"c4_0_1" = alloca <16 x float>
  %"c5_0_1" = alloca <16 x float>
  %"k_1.slot" = alloca i64
  br label %"start"
start:
  ; micro-kernel C += A B: 14x16x8 fp32, A strides (128, 1), B strides (16, 1), C row stride 16; 8x16 register block
  store i64 0, ptr %"i0.slot"
  br label %"i0.head"
i0.head:
  %"i0" = load i64, ptr %"i0.slot"
  %".9" = icmp slt i64 %"i0", 8
  br i1 %".9", label %"i0.body", label %"i0.exit"
i0.body:
  store i64 0, ptr %"p.slot"
  br label %"p.head"
i0.exit:
  store i64 0, ptr %"p_1.slot"
  br label %"p_1.head"
p.head:
  %"p" = load i64, ptr %"p.slot"
  %".13" = icmp slt i64 %"p", 1
  br i1 %".13", label %"p.body", label %"p.exit"
p.body:
  %".15" = mul i64 %"i0", 16
  %".16" = mul i64 %"p", 16
  %".17" = add i64 %".15", %".16"
  %".18" = getelementptr inbounds float, ptr %"C", i64 %".17"
  call void @"llvm.prefetch.p0"(ptr %".18", i32 1, i32 3, i32 1)
  %".20" = add i64 %"i0", 1
  %".21" = mul i64 %".20", 16
  %".22" = mul i64 %"p", 16
  %".23" = add i64 %".21", %".22"
  %".24" = getelementptr inbounds float, ptr %"C", i64 %".23"
  call void @"llvm.prefetch.p0"(ptr %".24", i32 1, i32 3, i32 1)
  %".26" = add i64 %"i0", 2
  %".27" = mul i64 %".26", 16
  %".28" = mul i64 %"p", 16
  %".29" = add i64 %".27", %".28"
  %".30" = getelementptr inbounds float, ptr %"C", i64 %".29"
  call void @"llvm.prefetch.p0"(ptr %".30", i32 1, i32 3, i32 1)
  %".32" = add i64 %"i0", 3
  %".33" = mul i64 %".32", 16
  %".34" = mul i64 %"p", 16
  %".35" = add i64 %".33", %".34"
  %".36" = getelementptr inbounds float, ptr %"C", i64 %".35"
  call void @"llvm.prefetch.p0"(ptr %".36", i32 1, i32 3, i32 1)
  %".38" = add i64 %"i0", 4
  %".39" = mul i64 %".38", 16
  %".40" = mul i64 %"p", 16
  %".41" = add i64 %".39", %".40"
  %".42" = getelementptr inbounds float, ptr %"C", i64 %".41"
  call void @"llvm.prefetch.p0"(ptr %".42", i32 1, i32 3, i32 1)
  %".44" = add i64 %"i0", 5
  %".45" = mul i64 %".44", 16
  %".46" = mul i64 %"p", 16
  %".47" = add i64 %".45", %".46"
  %".48" = getelementptr inbounds float, ptr %"C", i64 %".47"
  call void @"llvm.prefetch.p0"(ptr %".48", i32 1, i32 3, i32 1)
  %".50" = add i64 %"i0", 6
  %".51" = mul i64 %".50", 16
  %".52" = mul i64 %"p", 16
  %".53" = add i64 %".51", %".52"
  %".54" = getelementptr inbounds float, ptr %"C", i64 %".53"
  call void @"llvm.prefetch.p0"(ptr %".54", i32 1, i32 3, i32 1)
  %".56" = add i64 %"i0", 7
  %".57" = mul i64 %".56", 16
  %".58" = mul i64 %"p", 16
  %".59" = add i64 %".57", %".58"
  %".60" = getelementptr inbounds float, ptr %"C", i64 %".59"
  call void @"llvm.prefetch.p0"(ptr %".60", i32 1, i32 3, i32 1)
  %".62" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".63" = shufflevector <16 x float> %".62", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".63", ptr %"c0_0"
  %".65" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".66" = shufflevector <16 x float> %".65", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".66", ptr %"c1_0"
  %".68" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".69" = shufflevector <16 x float> %".68", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".69", ptr %"c2_0"
  %".71" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".72" = shufflevector <16 x float> %".71", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".72", ptr %"c3_0"
  %".74" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".75" = shufflevector <16 x float> %".74", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".75", ptr %"c4_0"
  %".77" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".78" = shufflevector <16 x float> %".77", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".78", ptr %"c5_0"
  %".80" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".81" = shufflevector <16 x float> %".80", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".81", ptr %"c6_0"
  %".83" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".84" = shufflevector <16 x float> %".83", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".84", ptr %"c7_0"
  store i64 0, ptr %"k.slot"
  br label %"k.head"
p.exit:
  %".306" = add i64 %"i0", 8
  store i64 %".306", ptr %"i0.slot"
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
  %".95" = mul i64 %"i0", 128
  %".96" = add i64 %".95", %"k"
  %".97" = getelementptr inbounds float, ptr %"A", i64 %".96"
  %".98" = load float, ptr %".97", align 4
  %".99" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".98", i32 0
  %"a0" = shufflevector <16 x float> %".99", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".101" = load <16 x float>, ptr %"c0_0"
  %".102" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a0", <16 x float> %"b0", <16 x float> %".101")
  store <16 x float> %".102", ptr %"c0_0"
  %".104" = mul i64 %"i0", 128
  %".105" = add i64 %".104", %"k"
  %".106" = add i64 %".105", 128
  %".107" = getelementptr inbounds float, ptr %"A", i64 %".106"
  %".108" = load float, ptr %".107", align 4
  %".109" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".108", i32 0
  %"a1" = shufflevector <16 x float> %".109", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".111" = load <16 x float>, ptr %"c1_0"
  %".112" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a1", <16 x float> %"b0", <16 x float> %".111")
  store <16 x float> %".112", ptr %"c1_0"
  %".114" = mul i64 %"i0", 128
  %".115" = add i64 %".114", %"k"
  %".116" = add i64 %".115", 256
  %".117" = getelementptr inbounds float, ptr %"A", i64 %".116"
  %".118" = load float, ptr %".117", align 4
  %".119" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".118", i32 0
  %"a2" = shufflevector <16 x float> %".119", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".121" = load <16 x float>, ptr %"c2_0"
  %".122" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a2", <16 x float> %"b0", <16 x float> %".121")
  store <16 x float> %".122", ptr %"c2_0"
  %".124" = mul i64 %"i0", 128
  %".125" = add i64 %".124", %"k"
  %".126" = add i64 %".125", 384
  %".127" = getelementptr inbounds float, ptr %"A", i64 %".126"
  %".128" = load float, ptr %".127", align 4
  %".129" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".128", i32 0
  %"a3" = shufflevector <16 x float> %".129", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".131" = load <16 x float>, ptr %"c3_0"
  %".132" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a3", <16 x float> %"b0", <16 x float> %".131")
  store <16 x float> %".132", ptr %"c3_0"
  %".134" = mul i64 %"i0", 128
  %".135" = add i64 %".134", %"k"
  %".136" = add i64 %".135", 512
  %".137" = getelementptr inbounds float, ptr %"A", i64 %".136"
  %".138" = load float, ptr %".137", align 4
  %".139" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".138", i32 0
  %"a4" = shufflevector <16 x float> %".139", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".141" = load <16 x float>, ptr %"c4_0"
  %".142" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a4", <16 x float> %"b0", <16 x float> %".141")
  store <16 x float> %".142", ptr %"c4_0"
  %".144" = mul i64 %"i0", 128
  %".145" = add i64 %".144", %"k"
  %".146" = add i64 %".145", 640
  %".147" = getelementptr inbounds float, ptr %"A", i64 %".146"
  %".148" = load float, ptr %".147", align 4
  %".149" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".148", i32 0
  %"a5" = shufflevector <16 x float> %".149", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".151" = load <16 x float>, ptr %"c5_0"
  %".152" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a5", <16 x float> %"b0", <16 x float> %".151")
  store <16 x float> %".152", ptr %"c5_0"
  %".154" = mul i64 %"i0", 128
  %".155" = add i64 %".154", %"k"
  %".156" = add i64 %".155", 768
  %".157" = getelementptr inbounds float, ptr %"A", i64 %".156"
  %".158" = load float, ptr %".157", align 4
  %".159" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".158", i32 0
  %"a6" = shufflevector <16 x float> %".159", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".161" = load <16 x float>, ptr %"c6_0"
  %".162" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a6", <16 x float> %"b0", <16 x float> %".161")
  store <16 x float> %".162", ptr %"c6_0"
  %".164" = mul i64 %"i0", 128
  %".165" = add i64 %".164", %"k"
  %".166" = add i64 %".165", 896
  %".167" = getelementptr inbounds float, ptr %"A", i64 %".166"
  %".168" = load float, ptr %".167", align 4
  %".169" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".168", i32 0
  %"a7" = shufflevector <16 x float> %".169", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".171" = load <16 x float>, ptr %"c7_0"
  %".172" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a7", <16 x float> %"b0", <16 x float> %".171")
  store <16 x float> %".172", ptr %"c7_0"
  %".174" = add i64 %"k", 1
  store i64 %".174", ptr %"k.slot"
  br label %"k.head"
k.exit:
  %".177" = load <16 x float>, ptr %"c0_0"
  %".178" = mul i64 %"i0", 16
  %".179" = mul i64 %"p", 16
  %".180" = add i64 %".178", %".179"
  %".181" = getelementptr inbounds float, ptr %"C", i64 %".180"
  %".182" = load <16 x float>, ptr %".181", align 4
  %".183" = fadd <16 x float> %".177", %".182"
  store <16 x float> %".183", ptr %"c0_0"
  %".185" = load <16 x float>, ptr %"c1_0"
  %".186" = mul i64 %"i0", 16
  %".187" = mul i64 %"p", 16
  %".188" = add i64 %".186", %".187"
  %".189" = add i64 %".188", 16
  %".190" = getelementptr inbounds float, ptr %"C", i64 %".189"
  %".191" = load <16 x float>, ptr %".190", align 4
  %".192" = fadd <16 x float> %".185", %".191"
  store <16 x float> %".192", ptr %"c1_0"
  %".194" = load <16 x float>, ptr %"c2_0"
  %".195" = mul i64 %"i0", 16
  %".196" = mul i64 %"p", 16
  %".197" = add i64 %".195", %".196"
  %".198" = add i64 %".197", 32
  %".199" = getelementptr inbounds float, ptr %"C", i64 %".198"
  %".200" = load <16 x float>, ptr %".199", align 4
  %".201" = fadd <16 x float> %".194", %".200"
  store <16 x float> %".201", ptr %"c2_0"
  %".203" = load <16 x float>, ptr %"c3_0"
  %".204" = mul i64 %"i0", 16
  %".205" = mul i64 %"p", 16
  %".206" = add i64 %".204", %".205"
  %".207" = add i64 %".206", 48
  %".208" = getelementptr inbounds float, ptr %"C", i64 %".207"
  %".209" = load <16 x float>, ptr %".208", align 4
  %".210" = fadd <16 x float> %".203", %".209"
  store <16 x float> %".210", ptr %"c3_0"
  %".212" = load <16 x float>, ptr %"c4_0"
  %".213" = mul i64 %"i0", 16
  %".214" = mul i64 %"p", 16
  %".215" = add i64 %".213", %".214"
  %".216" = add i64 %".215", 64
  %".217" = getelementptr inbounds float, ptr %"C", i64 %".216"
  %".218" = load <16 x float>, ptr %".217", align 4
  %".219" = fadd <16 x float> %".212", %".218"
  store <16 x float> %".219", ptr %"c4_0"
  %".221" = load <16 x float>, ptr %"c5_0"
  %".222" = mul i64 %"i0", 16
  %".223" = mul i64 %"p", 16
  %".224" = add i64 %".222", %".223"
  %".225" = add i64 %".224", 80
  %".226" = getelementptr inbounds float, ptr %"C", i64 %".225"
  %".227" = load <16 x float>, ptr %".226", align 4
  %".228" = fadd <16 x float> %".221", %".227"
  store <16 x float> %".228", ptr %"c5_0"
  %".230" = load <16 x float>, ptr %"c6_0"
  %".231" = mul i64 %"i0", 16
  %".232" = mul i64 %"p", 16
  %".233" = add i64 %".231", %".232"
  %".234" = add i64 %".233", 96
  %".235" = getelementptr inbounds float, ptr %"C", i64 %".234"
  %".236" = load <16 x float>, ptr %".235", align 4
  %".237" = fadd <16 x float> %".230", %".236"
  store <16 x float> %".237", ptr %"c6_0"
  %".239" = load <16 x float>, ptr %"c7_0"
  %".240" = mul i64 %"i0", 16
  %".241" = mul i64 %"p", 16
  %".242" = add i64 %".240", %".241"
  %".243" = add i64 %".242", 112
  %".244" = getelementptr inbounds float, ptr %"C", i64 %".243"
  %".245" = load <16 x float>, ptr %".244", align 4
  %".246" = fadd <16 x float> %".239", %".245"
  store <16 x float> %".246", ptr %"c7_0"
  %".248" = load <16 x float>, ptr %"c0_0"
  %".249" = mul i64 %"i0", 16
  %".250" = mul i64 %"p", 16
  %".251" = add i64 %".249", %".250"
  %".252" = getelementptr inbounds float, ptr %"C", i64 %".251"
  store <16 x float> %".248", ptr %".252", align 4
  %".254" = load <16 x float>, ptr %"c1_0"
  %".255" = mul i64 %"i0", 16
  %".256" = mul i64 %"p", 16
  %".257" = add i64 %".255", %".256"
  %".258" = add i64 %".257", 16
  %".259" = getelementptr inbounds float, ptr %"C", i64 %".258"
  store <16 x float> %".254", ptr %".259", align 4
  %".261" = load <16 x float>, ptr %"c2_0"
  %".262" = mul i64 %"i0", 16
  %".263" = mul i64 %"p", 16
  %".264" = add i64 %".262", %".263"
  %".265" = add i64 %".264", 32
  %".266" = getelementptr inbounds float, ptr %"C", i64 %".265"
  store <16 x float> %".261", ptr %".266", align 4
  %".268" = load <16 x float>, ptr %"c3_0"
  %".269" = mul i64 %"i0", 16
  %".270" = mul i64 %"p", 16
  %".271" = add i64 %".269", %".270"
  %".272" = add i64 %".271", 48
  %".273" = getelementptr inbounds float, ptr %"C", i64 %".272"
  store <16 x float> %".268", ptr %".273", align 4
  %".275" = load <16 x float>, ptr %"c4_0"
  %".276" = mul i64 %"i0", 16
  %".277" = mul i64 %"p", 16
  %".278" = add i64 %".276", %".277"
  %".279" = add i64 %".278", 64
  %".280" = getelementptr inbounds float, ptr %"C", i64 %".279"
  store <16 x float> %".275", ptr %".280", align 4
  %".282" = load <16 x float>, ptr %"c5_0"
  %".283" = mul i64 %"i0", 16
  %".284" = mul i64 %"p", 16
  %".285" = add i64 %".283", %".284"
  %".286" = add i64 %".285", 80
  %".287" = getelementptr inbounds float, ptr %"C", i64 %".286"
  store <16 x float> %".282", ptr %".287", align 4
  %".289" = load <16 x float>, ptr %"c6_0"
  %".290" = mul i64 %"i0", 16
  %".291" = mul i64 %"p", 16
  %".292" = add i64 %".290", %".291"
  %".293" = add i64 %".292", 96
  %".294" = getelementptr inbounds float, ptr %"C", i64 %".293"
  store <16 x float> %".289", ptr %".294", align 4
  %".296" = load <16 x float>, ptr %"c7_0"
  %".297" = mul i64 %"i0", 16
  %".298" = mul i64 %"p", 16
  %".299" = add i64 %".297", %".298"
  %".300" = add i64 %".299", 112
  %".301" = getelementptr inbounds float, ptr %"C", i64 %".300"
  store <16 x float> %".296", ptr %".301", align 4
  %".303" = add i64 %"p", 1
  store i64 %".303", ptr %"p.slot"
  br label %"p.head"
p_1.head:
  %"p_1" = load i64, ptr %"p_1.slot"
  %".311" = icmp slt i64 %"p_1", 1
  br i1 %".311", label %"p_1.body", label %"p_1.exit"
p_1.body:
  %".313" = mul i64 %"p_1", 16
  %".314" = add i64 128, %".313"
  %".315" = getelementptr inbounds float, ptr %"C", i64 %".314"
  call void @"llvm.prefetch.p0"(ptr %".315", i32 1, i32 3, i32 1)
  %".317" = mul i64 %"p_1", 16
  %".318" = add i64 144, %".317"
  %".319" = getelementptr inbounds float, ptr %"C", i64 %".318"
  call void @"llvm.prefetch.p0"(ptr %".319", i32 1, i32 3, i32 1)
  %".321" = mul i64 %"p_1", 16
  %".322" = add i64 160, %".321"
  %".323" = getelementptr inbounds float, ptr %"C", i64 %".322"
  call void @"llvm.prefetch.p0"(ptr %".323", i32 1, i32 3, i32 1)
  %".325" = mul i64 %"p_1", 16
  %".326" = add i64 176, %".325"
  %".327" = getelementptr inbounds float, ptr %"C", i64 %".326"
  call void @"llvm.prefetch.p0"(ptr %".327", i32 1, i32 3, i32 1)
  %".329" = mul i64 %"p_1", 16
  %".330" = add i64 192, %".329"
  %".331" = getelementptr inbounds float, ptr %"C", i64 %".330"
  call void @"llvm.prefetch.p0"(ptr %".331", i32 1, i32 3, i32 1)
  %".333" = mul i64 %"p_1", 16
  %".334" = add i64 208, %".333"
  %".335" = getelementptr inbounds float, ptr %"C", i64 %".334"
  call void @"llvm.prefetch.p0"(ptr %".335", i32 1, i32 3, i32 1)
  %".337" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".338" = shufflevector <16 x float> %".337", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".338", ptr %"c0_0_1"
  %".340" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".341" = shufflevector <16 x float> %".340", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".341", ptr %"c1_0_1"
  %".343" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".344" = shufflevector <16 x float> %".343", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".344", ptr %"c2_0_1"
  %".346" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".347" = shufflevector <16 x float> %".346", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".347", ptr %"c3_0_1"
  %".349" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".350" = shufflevector <16 x float> %".349", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".350", ptr %"c4_0_1"
  %".352" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".353" = shufflevector <16 x float> %".352", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".353", ptr %"c5_0_1"
  store i64 0, ptr %"k_1.slot"
  br label %"k_1.head"
p_1.exit:
  ret void
k_1.head:
  %"k_1" = load i64, ptr %"k_1.slot"
  %".357" = icmp slt i64 %"k_1", 8
  br i1 %".357", label %"k_1.body", label %"k_1.exit"
k_1.body:
  %".359" = mul i64 %"k_1", 16
  %".360" = mul i64 %"p_1", 16
  %".361" = add i64 %".359", %".360"
  %".362" = getelementptr inbounds float, ptr %"B", i64 %".361"
  %"b0_1" = load <16 x float>, ptr %".362", align 4
  %".364" = add i64 %"k_1", 1024
  %".365" = getelementptr inbounds float, ptr %"A", i64 %".364"
  %".366" = load float, ptr %".365", align 4
  %".367" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".366", i32 0
  %"a0_1" = shufflevector <16 x float> %".367", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".369" = load <16 x float>, ptr %"c0_0_1"
  %".370" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a0_1", <16 x float> %"b0_1", <16 x float> %".369")
  store <16 x float> %".370", ptr %"c0_0_1"
  %".372" = add i64 %"k_1", 1152
  %".373" = getelementptr inbounds float, ptr %"A", i64 %".372"
  %".374" = load float, ptr %".373", align 4
  %".375" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".374", i32 0
  %"a1_1" = shufflevector <16 x float> %".375", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".377" = load <16 x float>, ptr %"c1_0_1"
  %".378" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a1_1", <16 x float> %"b0_1", <16 x float> %".377")
  store <16 x float> %".378", ptr %"c1_0_1"
  %".380" = add i64 %"k_1", 1280
  %".381" = getelementptr inbounds float, ptr %"A", i64 %".380"
  %".382" = load float, ptr %".381", align 4
  %".383" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".382", i32 0
  %"a2_1" = shufflevector <16 x float> %".383", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".385" = load <16 x float>, ptr %"c2_0_1"
  %".386" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a2_1", <16 x float> %"b0_1", <16 x float> %".385")
  store <16 x float> %".386", ptr %"c2_0_1"
  %".388" = add i64 %"k_1", 1408
  %".389" = getelementptr inbounds float, ptr %"A", i64 %".388"
  %".390" = load float, ptr %".389", align 4
  %".391" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".390", i32 0
  %"a3_1" = shufflevector <16 x float> %".391", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".393" = load <16 x float>, ptr %"c3_0_1"
  %".394" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a3_1", <16 x float> %"b0_1", <16 x float> %".393")
  store <16 x float> %".394", ptr %"c3_0_1"
  %".396" = add i64 %"k_1", 1536
  %".397" = getelementptr inbounds float, ptr %"A", i64 %".396"
  %".398" = load float, ptr %".397", align 4
  %".399" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".398", i32 0
  %"a4_1" = shufflevector <16 x float> %".399", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".401" = load <16 x float>, ptr %"c4_0_1"
  %".402" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a4_1", <16 x float> %"b0_1", <16 x float> %".401")
  store <16 x float> %".402", ptr %"c4_0_1"
  %".404" = add i64 %"k_1", 1664
  %".405" = getelementptr inbounds float, ptr %"A", i64 %".404"
  %".406" = load float, ptr %".405", align 4
  %".407" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".406", i32 0
  %"a5_1" = shufflevector <16 x float> %".407", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".409" = load <16 x float>, ptr %"c5_0_1"
  %".410" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a5_1", <16 x float> %"b0_1", <16 x float> %".409")
  store <16 x float> %".410", ptr %"c5_0_1"
  %".412" = add i64 %"k_1", 1
  store i64 %".412", ptr %"k_1.slot"
  br label %"k_1.head"
k_1.exit:
  %".415" = load <16 x float>, ptr %"c0_0_1"
  %".416" = mul i64 %"p_1", 16
  %".417" = add i64 %".416", 128
  %".418" = getelementptr inbounds float, ptr %"C", i64 %".417"
  %".419" = load <16 x float>, ptr %".418", align 4
  %".420" = fadd <16 x float> %".415", %".419"
  store <16 x float> %".420", ptr %"c0_0_1"
  %".422" = load <16 x float>, ptr %"c1_0_1"
  %".423" = mul i64 %"p_1", 16
  %".424" = add i64 %".423", 144
  %".425" = getelementptr inbounds float, ptr %"C", i64 %".424"
  %".426" = load <16 x float>, ptr %".425", align 4
  %".427" = fadd <16 x float> %".422", %".426"
  store <16 x float> %".427", ptr %"c1_0_1"
  %".429" = load <16 x float>, ptr %"c2_0_1"
  %".430" = mul i64 %"p_1", 16
  %".431" = add i64 %".430", 160
  %".432" = getelementptr inbounds float, ptr %"C", i64 %".431"
  %".433" = load <16 x float>, ptr %".432", align 4
  %".434" = fadd <16 x float> %".429", %".433"
  store <16 x float> %".434", ptr %"c2_0_1"
  %".436" = load <16 x float>, ptr %"c3_0_1"
  %".437" = mul i64 %"p_1", 16
  %".438" = add i64 %".437", 176
  %".439" = getelementptr inbounds float, ptr %"C", i64 %".438"
  %".440" = load <16 x float>, ptr %".439", align 4
  %".441" = fadd <16 x float> %".436", %".440"
  store <16 x float> %".441", ptr %"c3_0_1"
  %".443" = load <16 x float>, ptr %"c4_0_1"
  %".444" = mul i64 %"p_1", 16
  %".445" = add i64 %".444", 192
  %".446" = getelementptr inbounds float, ptr %"C", i64 %".445"
  %".447" = load <16 x float>, ptr %".446", align 4
  %".448" = fadd <16 x float> %".443", %".447"
  store <16 x float> %".448", ptr %"c4_0_1"
  %".450" = load <16 x float>, ptr %"c5_0_1"
  %".451" = mul i64 %"p_1", 16
  %".452" = add i64 %".451", 208
  %".453" = getelementptr inbounds float, ptr %"C", i64 %".452"
  %".454" = load <16 x float>, ptr %".453", align 4
  %".455" = fadd <16 x float> %".450", %".454"
  store <16 x float> %".455", ptr %"c5_0_1"
  %".457" = load <16 x float>, ptr %"c0_0_1"
  %".458" = mul i64 %"p_1", 16
  %".459" = add i64 %".458", 128
  %".460" = getelementptr inbounds float, ptr %"C", i64 %".459"
  store <16 x float> %".457", ptr %".460", align 4
  %".462" = load <16 x float>, ptr %"c1_0_1"
  %".463" = mul i64 %"p_1", 16
  %".464" = add i64 %".463", 144
  %".465" = getelementptr inbounds float, ptr %"C", i64 %".464"
  store <16 x float> %".462", ptr %".465", align 4
  %".467" = load <16 x float>, ptr %"c2_0_1"
  %".468" = mul i64 %"p_1", 16
  %".469" = add i64 %".468", 160
  %".470" = getelementptr inbounds float, ptr %"C", i64 %".469"
  store <16 x float> %".467", ptr %".470", align 4
  %".472" = load <16 x float>, ptr %"c3_0_1"
  %".473" = mul i64 %"p_1", 16
  %".474" = add i64 %".473", 176
  %".475" = getelementptr inbounds float, ptr %"C", i64 %".474"
  store <16 x float> %".472", ptr %".475", align 4
  %".477" = load <16 x float>, ptr %"c4_0_1"
  %".478" = mul i64 %"p_1", 16
  %".479" = add i64 %".478", 192
  %".480" = getelementptr inbounds float, ptr %"C", i64 %".479"
  store <16 x float> %".477", ptr %".480", align 4
  %".482" = load <16 x float>, ptr %"c5_0_1"
  %".483" = mul i64 %"p_1", 16
  %".484" = add i64 %".483", 208
  %".485" = getelementptr inbounds float, ptr %"C", i64 %".484"
  store <16 x float> %".482", ptr %".485", align 4
  %".487" = add i64 %"p_1", 1
  store i64 %".487", ptr %"p_1.slot"
  br label %"p_1.head"
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

declare void @"llvm.prefetch.p0"(ptr %".1", i32 %".2", i32 %".3", i32 %".4")

declare <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %".1", <16 x float> %".2", <16 x float> %".3")

define internal void @"kernel_0.parallel.1"(ptr %".1") "prefer-vector-width"="512"
{
entry:
  %"y.it.slot" = alloca i64
  %"gemm_scratch" = alloca [128 x float], align 64
  %"X_01" = alloca [224 x float], align 64
  %"e1.slot" = alloca i64
  %"e3.slot" = alloca i64
  %"i.slot" = alloca i64
  %"j.slot" = alloca i64
  %"i2.slot" = alloca i64
  %"i4.slot" = alloca i64
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
  ; initialise what 'X_01' aggregates (add)
  store i64 0, ptr %"e1.slot"
  br label %"e1.head"
y.it.exit:
  ret void
e1.head:
  %"e1" = load i64, ptr %"e1.slot"
  %".45" = icmp slt i64 %"e1", 14
  br i1 %".45", label %"e1.body", label %"e1.exit"
e1.body:
  store i64 0, ptr %"e3.slot"
  br label %"e3.head"
e1.exit:
  store i64 0, ptr %"i.slot"
  br label %"i.head"
e3.head:
  %"e3" = load i64, ptr %"e3.slot"
  %".49" = icmp slt i64 %"e3", 16
  br i1 %".49", label %"e3.body", label %"e3.exit"
e3.body:
  %".51" = mul i64 %"e1", 16
  %".52" = add i64 %".51", %"e3"
  %".53" = getelementptr inbounds float, ptr %"X_01", i64 %".52"
  store float              0x0, ptr %".53", align 4
  %".55" = add i64 %"e3", 1
  store i64 %".55", ptr %"e3.slot"
  br label %"e3.head", !llvm.loop !2
e3.exit:
  %".58" = add i64 %"e1", 1
  store i64 %".58", ptr %"e1.slot"
  br label %"e1.head"
i.head:
  %"i" = load i64, ptr %"i.slot"
  %".63" = icmp slt i64 %"i", 3
  br i1 %".63", label %"i.body", label %"i.exit"
i.body:
  store i64 0, ptr %"j.slot"
  br label %"j.head"
i.exit:
  ; kernel_1(X_T3,X_I_0)+kernel_2(X_T4,X_T0)+kernel_3(X_T5,X_T0,X_T4)
  store i64 0, ptr %"i2.slot"
  br label %"i2.head"
j.head:
  %"j" = load i64, ptr %"j.slot"
  %".67" = icmp slt i64 %"j", 3
  br i1 %".67", label %"j.body", label %"j.exit"
j.body:
  ; #0
  %".70" = mul i64 %"i", 128
  %".71" = mul i64 %"j", 8
  %".72" = add i64 %".70", %".71"
  %".73" = mul i64 %"y", 8
  %".74" = add i64 %".72", %".73"
  %".75" = getelementptr inbounds float, ptr %".8", i64 %".74"
  %".76" = mul i64 %"i", 384
  %".77" = mul i64 %"j", 128
  %".78" = add i64 %".76", %".77"
  %".79" = getelementptr inbounds float, ptr %".10", i64 %".78"
  call void @"gemm"(ptr %".75", ptr %".79", ptr %"X_01", ptr %"gemm_scratch")
  %".81" = add i64 %"j", 1
  store i64 %".81", ptr %"j.slot"
  br label %"j.head"
j.exit:
  %".84" = add i64 %"i", 1
  store i64 %".84", ptr %"i.slot"
  br label %"i.head"
i2.head:
  %"i2" = load i64, ptr %"i2.slot"
  %".90" = icmp slt i64 %"i2", 14
  br i1 %".90", label %"i2.body", label %"i2.exit"
i2.body:
  store i64 0, ptr %"i4.slot"
  br label %"i4.head"
i2.exit:
  %".117" = add i64 %"y.it", 1
  store i64 %".117", ptr %"y.it.slot"
  br label %"y.it.head"
i4.head:
  %"i4" = load i64, ptr %"i4.slot"
  %".94" = icmp slt i64 %"i4", 16
  br i1 %".94", label %"i4.body", label %"i4.exit"
i4.body:
  %".96" = mul i64 %"i2", 16
  %".97" = add i64 %".96", %"i4"
  %".98" = getelementptr inbounds float, ptr %"X_01", i64 %".97"
  %"X_T3" = load float, ptr %".98", align 4
  %".100" = getelementptr inbounds float, ptr %".12", i64 %"i4"
  %"X_I_0_1" = load float, ptr %".100", align 4
  %"X_T4" = fadd float %"X_T3", %"X_I_0_1"
  %"X_T5" = fcmp olt float %"X_T4",              0x0
  %"X_T6_1" = select  i1 %"X_T5", float              0x0, float %"X_T4"
  %".105" = mul i64 %"i2", 224
  %".106" = add i64 %".105", %"i4"
  %".107" = mul i64 %"y", 16
  %".108" = add i64 %".106", %".107"
  %".109" = getelementptr inbounds float, ptr %".14", i64 %".108"
  store float %"X_T6_1", ptr %".109", align 4
  %".111" = add i64 %"i4", 1
  store i64 %".111", ptr %"i4.slot"
  br label %"i4.head", !llvm.loop !3
i4.exit:
  %".114" = add i64 %"i2", 1
  store i64 %".114", ptr %"i2.slot"
  br label %"i2.head"
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
!3 = distinct !{ !3, !0, !1 }