; ModuleID = "plaidc"
target triple = "unknown-unknown-unknown"
target datalayout = ""

define internal void @"gemm"(ptr noalias %"A", ptr noalias %"B", ptr noalias %"C", ptr noalias %"scratch") "prefer-vector-width"="512"
{
entry:
  %"p.slot" = alloca i64
  %"k.slot" = alloca i64
  %"i0.slot" = alloca i64
  %"p_1.slot" = alloca i64
  %"c0_0" = alloca <16 x float>
  %"c1_0" = alloca <16 x float>
  %"c2_0" = alloca <16 x float>
  %"c3_0" = alloca <16 x float>
  %"c4_0" = alloca <16 x float>
  %"c5_0" = alloca <16 x float>
  %"c6_0" = alloca <16 x float>
  %"c7_0" = alloca <16 x float>
  %"k_1.slot" = alloca i64
  %"p_2.slot" = alloca i64
  %"c0_0_1" = alloca <16 x float>
  %"c1_0_1" = alloca <16 x float>
  %"c2_0_1" = alloca <16 x float>
  %"c3_0_1" = alloca <16 x float>
  %"c4_0_1" = alloca <16 x float>
  %"c5_0_1" = alloca <16 x float>
  %"k_2.slot" = alloca i64
  br label %"start"
start:
  ; micro-kernel C += A B: 14x16x8 fp32, A strides (128, 1), B strides (16, 1), C row stride 16; 8x16 register block
  store i64 0, ptr %"p.slot"
  br label %"p.head"
p.head:
  %"p" = load i64, ptr %"p.slot"
  %".9" = icmp slt i64 %"p", 1
  br i1 %".9", label %"p.body", label %"p.exit"
p.body:
  store i64 0, ptr %"k.slot"
  br label %"k.head"
p.exit:
  store i64 0, ptr %"i0.slot"
  br label %"i0.head"
k.head:
  %"k" = load i64, ptr %"k.slot"
  %".13" = icmp slt i64 %"k", 8
  br i1 %".13", label %"k.body", label %"k.exit"
k.body:
  %".15" = mul i64 %"k", 16
  %".16" = mul i64 %"p", 16
  %".17" = add i64 %".15", %".16"
  %".18" = getelementptr inbounds float, ptr %"B", i64 %".17"
  %".19" = load <16 x float>, ptr %".18", align 4
  %".20" = mul i64 %"k", 16
  %".21" = mul i64 %"p", 128
  %".22" = add i64 %".20", %".21"
  %".23" = getelementptr inbounds float, ptr %"scratch", i64 %".22"
  store <16 x float> %".19", ptr %".23", align 4
  %".25" = add i64 %"k", 1
  store i64 %".25", ptr %"k.slot"
  br label %"k.head"
k.exit:
  %".28" = add i64 %"p", 1
  store i64 %".28", ptr %"p.slot"
  br label %"p.head"
i0.head:
  %"i0" = load i64, ptr %"i0.slot"
  %".33" = icmp slt i64 %"i0", 8
  br i1 %".33", label %"i0.body", label %"i0.exit"
i0.body:
  store i64 0, ptr %"p_1.slot"
  br label %"p_1.head"
i0.exit:
  store i64 0, ptr %"p_2.slot"
  br label %"p_2.head"
p_1.head:
  %"p_1" = load i64, ptr %"p_1.slot"
  %".37" = icmp slt i64 %"p_1", 1
  br i1 %".37", label %"p_1.body", label %"p_1.exit"
p_1.body:
  %".39" = mul i64 %"i0", 16
  %".40" = mul i64 %"p_1", 16
  %".41" = add i64 %".39", %".40"
  %".42" = getelementptr inbounds float, ptr %"C", i64 %".41"
  %".43" = load <16 x float>, ptr %".42", align 4
  store <16 x float> %".43", ptr %"c0_0"
  %".45" = mul i64 %"i0", 16
  %".46" = mul i64 %"p_1", 16
  %".47" = add i64 %".45", %".46"
  %".48" = add i64 %".47", 16
  %".49" = getelementptr inbounds float, ptr %"C", i64 %".48"
  %".50" = load <16 x float>, ptr %".49", align 4
  store <16 x float> %".50", ptr %"c1_0"
  %".52" = mul i64 %"i0", 16
  %".53" = mul i64 %"p_1", 16
  %".54" = add i64 %".52", %".53"
  %".55" = add i64 %".54", 32
  %".56" = getelementptr inbounds float, ptr %"C", i64 %".55"
  %".57" = load <16 x float>, ptr %".56", align 4
  store <16 x float> %".57", ptr %"c2_0"
  %".59" = mul i64 %"i0", 16
  %".60" = mul i64 %"p_1", 16
  %".61" = add i64 %".59", %".60"
  %".62" = add i64 %".61", 48
  %".63" = getelementptr inbounds float, ptr %"C", i64 %".62"
  %".64" = load <16 x float>, ptr %".63", align 4
  store <16 x float> %".64", ptr %"c3_0"
  %".66" = mul i64 %"i0", 16
  %".67" = mul i64 %"p_1", 16
  %".68" = add i64 %".66", %".67"
  %".69" = add i64 %".68", 64
  %".70" = getelementptr inbounds float, ptr %"C", i64 %".69"
  %".71" = load <16 x float>, ptr %".70", align 4
  store <16 x float> %".71", ptr %"c4_0"
  %".73" = mul i64 %"i0", 16
  %".74" = mul i64 %"p_1", 16
  %".75" = add i64 %".73", %".74"
  %".76" = add i64 %".75", 80
  %".77" = getelementptr inbounds float, ptr %"C", i64 %".76"
  %".78" = load <16 x float>, ptr %".77", align 4
  store <16 x float> %".78", ptr %"c5_0"
  %".80" = mul i64 %"i0", 16
  %".81" = mul i64 %"p_1", 16
  %".82" = add i64 %".80", %".81"
  %".83" = add i64 %".82", 96
  %".84" = getelementptr inbounds float, ptr %"C", i64 %".83"
  %".85" = load <16 x float>, ptr %".84", align 4
  store <16 x float> %".85", ptr %"c6_0"
  %".87" = mul i64 %"i0", 16
  %".88" = mul i64 %"p_1", 16
  %".89" = add i64 %".87", %".88"
  %".90" = add i64 %".89", 112
  %".91" = getelementptr inbounds float, ptr %"C", i64 %".90"
  %".92" = load <16 x float>, ptr %".91", align 4
  store <16 x float> %".92", ptr %"c7_0"
  store i64 0, ptr %"k_1.slot"
  br label %"k_1.head"
p_1.exit:
  %".243" = add i64 %"i0", 8
  store i64 %".243", ptr %"i0.slot"
  br label %"i0.head"
k_1.head:
  %"k_1" = load i64, ptr %"k_1.slot"
  %".96" = icmp slt i64 %"k_1", 8
  br i1 %".96", label %"k_1.body", label %"k_1.exit"
k_1.body:
  %".98" = mul i64 %"k_1", 16
  %".99" = mul i64 %"p_1", 128
  %".100" = add i64 %".98", %".99"
  %".101" = getelementptr inbounds float, ptr %"scratch", i64 %".100"
  %"b0" = load <16 x float>, ptr %".101", align 4
  %".103" = mul i64 %"i0", 128
  %".104" = add i64 %".103", %"k_1"
  %".105" = getelementptr inbounds float, ptr %"A", i64 %".104"
  %".106" = load float, ptr %".105", align 4
  %".107" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".106", i32 0
  %"a0" = shufflevector <16 x float> %".107", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".109" = load <16 x float>, ptr %"c0_0"
  %".110" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a0", <16 x float> %"b0", <16 x float> %".109")
  store <16 x float> %".110", ptr %"c0_0"
  %".112" = mul i64 %"i0", 128
  %".113" = add i64 %".112", %"k_1"
  %".114" = add i64 %".113", 128
  %".115" = getelementptr inbounds float, ptr %"A", i64 %".114"
  %".116" = load float, ptr %".115", align 4
  %".117" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".116", i32 0
  %"a1" = shufflevector <16 x float> %".117", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".119" = load <16 x float>, ptr %"c1_0"
  %".120" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a1", <16 x float> %"b0", <16 x float> %".119")
  store <16 x float> %".120", ptr %"c1_0"
  %".122" = mul i64 %"i0", 128
  %".123" = add i64 %".122", %"k_1"
  %".124" = add i64 %".123", 256
  %".125" = getelementptr inbounds float, ptr %"A", i64 %".124"
  %".126" = load float, ptr %".125", align 4
  %".127" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".126", i32 0
  %"a2" = shufflevector <16 x float> %".127", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".129" = load <16 x float>, ptr %"c2_0"
  %".130" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a2", <16 x float> %"b0", <16 x float> %".129")
  store <16 x float> %".130", ptr %"c2_0"
  %".132" = mul i64 %"i0", 128
  %".133" = add i64 %".132", %"k_1"
  %".134" = add i64 %".133", 384
  %".135" = getelementptr inbounds float, ptr %"A", i64 %".134"
  %".136" = load float, ptr %".135", align 4
  %".137" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".136", i32 0
  %"a3" = shufflevector <16 x float> %".137", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".139" = load <16 x float>, ptr %"c3_0"
  %".140" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a3", <16 x float> %"b0", <16 x float> %".139")
  store <16 x float> %".140", ptr %"c3_0"
  %".142" = mul i64 %"i0", 128
  %".143" = add i64 %".142", %"k_1"
  %".144" = add i64 %".143", 512
  %".145" = getelementptr inbounds float, ptr %"A", i64 %".144"
  %".146" = load float, ptr %".145", align 4
  %".147" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".146", i32 0
  %"a4" = shufflevector <16 x float> %".147", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".149" = load <16 x float>, ptr %"c4_0"
  %".150" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a4", <16 x float> %"b0", <16 x float> %".149")
  store <16 x float> %".150", ptr %"c4_0"
  %".152" = mul i64 %"i0", 128
  %".153" = add i64 %".152", %"k_1"
  %".154" = add i64 %".153", 640
  %".155" = getelementptr inbounds float, ptr %"A", i64 %".154"
  %".156" = load float, ptr %".155", align 4
  %".157" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".156", i32 0
  %"a5" = shufflevector <16 x float> %".157", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".159" = load <16 x float>, ptr %"c5_0"
  %".160" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a5", <16 x float> %"b0", <16 x float> %".159")
  store <16 x float> %".160", ptr %"c5_0"
  %".162" = mul i64 %"i0", 128
  %".163" = add i64 %".162", %"k_1"
  %".164" = add i64 %".163", 768
  %".165" = getelementptr inbounds float, ptr %"A", i64 %".164"
  %".166" = load float, ptr %".165", align 4
  %".167" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".166", i32 0
  %"a6" = shufflevector <16 x float> %".167", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".169" = load <16 x float>, ptr %"c6_0"
  %".170" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a6", <16 x float> %"b0", <16 x float> %".169")
  store <16 x float> %".170", ptr %"c6_0"
  %".172" = mul i64 %"i0", 128
  %".173" = add i64 %".172", %"k_1"
  %".174" = add i64 %".173", 896
  %".175" = getelementptr inbounds float, ptr %"A", i64 %".174"
  %".176" = load float, ptr %".175", align 4
  %".177" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".176", i32 0
  %"a7" = shufflevector <16 x float> %".177", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".179" = load <16 x float>, ptr %"c7_0"
  %".180" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a7", <16 x float> %"b0", <16 x float> %".179")
  store <16 x float> %".180", ptr %"c7_0"
  %".182" = add i64 %"k_1", 1
  store i64 %".182", ptr %"k_1.slot"
  br label %"k_1.head"
k_1.exit:
  %".185" = load <16 x float>, ptr %"c0_0"
  %".186" = mul i64 %"i0", 16
  %".187" = mul i64 %"p_1", 16
  %".188" = add i64 %".186", %".187"
  %".189" = getelementptr inbounds float, ptr %"C", i64 %".188"
  store <16 x float> %".185", ptr %".189", align 4
  %".191" = load <16 x float>, ptr %"c1_0"
  %".192" = mul i64 %"i0", 16
  %".193" = mul i64 %"p_1", 16
  %".194" = add i64 %".192", %".193"
  %".195" = add i64 %".194", 16
  %".196" = getelementptr inbounds float, ptr %"C", i64 %".195"
  store <16 x float> %".191", ptr %".196", align 4
  %".198" = load <16 x float>, ptr %"c2_0"
  %".199" = mul i64 %"i0", 16
  %".200" = mul i64 %"p_1", 16
  %".201" = add i64 %".199", %".200"
  %".202" = add i64 %".201", 32
  %".203" = getelementptr inbounds float, ptr %"C", i64 %".202"
  store <16 x float> %".198", ptr %".203", align 4
  %".205" = load <16 x float>, ptr %"c3_0"
  %".206" = mul i64 %"i0", 16
  %".207" = mul i64 %"p_1", 16
  %".208" = add i64 %".206", %".207"
  %".209" = add i64 %".208", 48
  %".210" = getelementptr inbounds float, ptr %"C", i64 %".209"
  store <16 x float> %".205", ptr %".210", align 4
  %".212" = load <16 x float>, ptr %"c4_0"
  %".213" = mul i64 %"i0", 16
  %".214" = mul i64 %"p_1", 16
  %".215" = add i64 %".213", %".214"
  %".216" = add i64 %".215", 64
  %".217" = getelementptr inbounds float, ptr %"C", i64 %".216"
  store <16 x float> %".212", ptr %".217", align 4
  %".219" = load <16 x float>, ptr %"c5_0"
  %".220" = mul i64 %"i0", 16
  %".221" = mul i64 %"p_1", 16
  %".222" = add i64 %".220", %".221"
  %".223" = add i64 %".222", 80
  %".224" = getelementptr inbounds float, ptr %"C", i64 %".223"
  store <16 x float> %".219", ptr %".224", align 4
  %".226" = load <16 x float>, ptr %"c6_0"
  %".227" = mul i64 %"i0", 16
  %".228" = mul i64 %"p_1", 16
  %".229" = add i64 %".227", %".228"
  %".230" = add i64 %".229", 96
  %".231" = getelementptr inbounds float, ptr %"C", i64 %".230"
  store <16 x float> %".226", ptr %".231", align 4
  %".233" = load <16 x float>, ptr %"c7_0"
  %".234" = mul i64 %"i0", 16
  %".235" = mul i64 %"p_1", 16
  %".236" = add i64 %".234", %".235"
  %".237" = add i64 %".236", 112
  %".238" = getelementptr inbounds float, ptr %"C", i64 %".237"
  store <16 x float> %".233", ptr %".238", align 4
  %".240" = add i64 %"p_1", 1
  store i64 %".240", ptr %"p_1.slot"
  br label %"p_1.head"
p_2.head:
  %"p_2" = load i64, ptr %"p_2.slot"
  %".248" = icmp slt i64 %"p_2", 1
  br i1 %".248", label %"p_2.body", label %"p_2.exit"
p_2.body:
  %".250" = mul i64 %"p_2", 16
  %".251" = add i64 %".250", 128
  %".252" = getelementptr inbounds float, ptr %"C", i64 %".251"
  %".253" = load <16 x float>, ptr %".252", align 4
  store <16 x float> %".253", ptr %"c0_0_1"
  %".255" = mul i64 %"p_2", 16
  %".256" = add i64 %".255", 144
  %".257" = getelementptr inbounds float, ptr %"C", i64 %".256"
  %".258" = load <16 x float>, ptr %".257", align 4
  store <16 x float> %".258", ptr %"c1_0_1"
  %".260" = mul i64 %"p_2", 16
  %".261" = add i64 %".260", 160
  %".262" = getelementptr inbounds float, ptr %"C", i64 %".261"
  %".263" = load <16 x float>, ptr %".262", align 4
  store <16 x float> %".263", ptr %"c2_0_1"
  %".265" = mul i64 %"p_2", 16
  %".266" = add i64 %".265", 176
  %".267" = getelementptr inbounds float, ptr %"C", i64 %".266"
  %".268" = load <16 x float>, ptr %".267", align 4
  store <16 x float> %".268", ptr %"c3_0_1"
  %".270" = mul i64 %"p_2", 16
  %".271" = add i64 %".270", 192
  %".272" = getelementptr inbounds float, ptr %"C", i64 %".271"
  %".273" = load <16 x float>, ptr %".272", align 4
  store <16 x float> %".273", ptr %"c4_0_1"
  %".275" = mul i64 %"p_2", 16
  %".276" = add i64 %".275", 208
  %".277" = getelementptr inbounds float, ptr %"C", i64 %".276"
  %".278" = load <16 x float>, ptr %".277", align 4
  store <16 x float> %".278", ptr %"c5_0_1"
  store i64 0, ptr %"k_2.slot"
  br label %"k_2.head"
p_2.exit:
  ret void
k_2.head:
  %"k_2" = load i64, ptr %"k_2.slot"
  %".282" = icmp slt i64 %"k_2", 8
  br i1 %".282", label %"k_2.body", label %"k_2.exit"
k_2.body:
  %".284" = mul i64 %"k_2", 16
  %".285" = mul i64 %"p_2", 128
  %".286" = add i64 %".284", %".285"
  %".287" = getelementptr inbounds float, ptr %"scratch", i64 %".286"
  %"b0_1" = load <16 x float>, ptr %".287", align 4
  %".289" = add i64 %"k_2", 1024
  %".290" = getelementptr inbounds float, ptr %"A", i64 %".289"
  %".291" = load float, ptr %".290", align 4
  %".292" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".291", i32 0
  %"a0_1" = shufflevector <16 x float> %".292", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".294" = load <16 x float>, ptr %"c0_0_1"
  %".295" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a0_1", <16 x float> %"b0_1", <16 x float> %".294")
  store <16 x float> %".295", ptr %"c0_0_1"
  %".297" = add i64 %"k_2", 1152
  %".298" = getelementptr inbounds float, ptr %"A", i64 %".297"
  %".299" = load float, ptr %".298", align 4
  %".300" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".299", i32 0
  %"a1_1" = shufflevector <16 x float> %".300", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".302" = load <16 x float>, ptr %"c1_0_1"
  %".303" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a1_1", <16 x float> %"b0_1", <16 x float> %".302")
  store <16 x float> %".303", ptr %"c1_0_1"
  %".305" = add i64 %"k_2", 1280
  %".306" = getelementptr inbounds float, ptr %"A", i64 %".305"
  %".307" = load float, ptr %".306", align 4
  %".308" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".307", i32 0
  %"a2_1" = shufflevector <16 x float> %".308", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".310" = load <16 x float>, ptr %"c2_0_1"
  %".311" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a2_1", <16 x float> %"b0_1", <16 x float> %".310")
  store <16 x float> %".311", ptr %"c2_0_1"
  %".313" = add i64 %"k_2", 1408
  %".314" = getelementptr inbounds float, ptr %"A", i64 %".313"
  %".315" = load float, ptr %".314", align 4
  %".316" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".315", i32 0
  %"a3_1" = shufflevector <16 x float> %".316", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".318" = load <16 x float>, ptr %"c3_0_1"
  %".319" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a3_1", <16 x float> %"b0_1", <16 x float> %".318")
  store <16 x float> %".319", ptr %"c3_0_1"
  %".321" = add i64 %"k_2", 1536
  %".322" = getelementptr inbounds float, ptr %"A", i64 %".321"
  %".323" = load float, ptr %".322", align 4
  %".324" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".323", i32 0
  %"a4_1" = shufflevector <16 x float> %".324", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".326" = load <16 x float>, ptr %"c4_0_1"
  %".327" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a4_1", <16 x float> %"b0_1", <16 x float> %".326")
  store <16 x float> %".327", ptr %"c4_0_1"
  %".329" = add i64 %"k_2", 1664
  %".330" = getelementptr inbounds float, ptr %"A", i64 %".329"
  %".331" = load float, ptr %".330", align 4
  %".332" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".331", i32 0
  %"a5_1" = shufflevector <16 x float> %".332", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".334" = load <16 x float>, ptr %"c5_0_1"
  %".335" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a5_1", <16 x float> %"b0_1", <16 x float> %".334")
  store <16 x float> %".335", ptr %"c5_0_1"
  %".337" = add i64 %"k_2", 1
  store i64 %".337", ptr %"k_2.slot"
  br label %"k_2.head"
k_2.exit:
  %".340" = load <16 x float>, ptr %"c0_0_1"
  %".341" = mul i64 %"p_2", 16
  %".342" = add i64 %".341", 128
  %".343" = getelementptr inbounds float, ptr %"C", i64 %".342"
  store <16 x float> %".340", ptr %".343", align 4
  %".345" = load <16 x float>, ptr %"c1_0_1"
  %".346" = mul i64 %"p_2", 16
  %".347" = add i64 %".346", 144
  %".348" = getelementptr inbounds float, ptr %"C", i64 %".347"
  store <16 x float> %".345", ptr %".348", align 4
  %".350" = load <16 x float>, ptr %"c2_0_1"
  %".351" = mul i64 %"p_2", 16
  %".352" = add i64 %".351", 160
  %".353" = getelementptr inbounds float, ptr %"C", i64 %".352"
  store <16 x float> %".350", ptr %".353", align 4
  %".355" = load <16 x float>, ptr %"c3_0_1"
  %".356" = mul i64 %"p_2", 16
  %".357" = add i64 %".356", 176
  %".358" = getelementptr inbounds float, ptr %"C", i64 %".357"
  store <16 x float> %".355", ptr %".358", align 4
  %".360" = load <16 x float>, ptr %"c4_0_1"
  %".361" = mul i64 %"p_2", 16
  %".362" = add i64 %".361", 192
  %".363" = getelementptr inbounds float, ptr %"C", i64 %".362"
  store <16 x float> %".360", ptr %".363", align 4
  %".365" = load <16 x float>, ptr %"c5_0_1"
  %".366" = mul i64 %"p_2", 16
  %".367" = add i64 %".366", 208
  %".368" = getelementptr inbounds float, ptr %"C", i64 %".367"
  store <16 x float> %".365", ptr %".368", align 4
  %".370" = add i64 %"p_2", 1
  store i64 %".370", ptr %"p_2.slot"
  br label %"p_2.head"
}

define internal void @"kernel_0"(ptr noalias %"X_I_1", ptr noalias %"X_I_2", ptr noalias %"X_I_0", ptr noalias %"X_T6") "prefer-vector-width"="512"
{
entry:
  %"y.ctx" = alloca {i64, i64, ptr, ptr, ptr, ptr}
  br label %"start"
start:
  ; kernel_0
  ; kernel_0(X_I_1,X_I_2)+kernel_1(X_T3,X_I_0)+kernel_2(X_T4,X_T0)+kernel_3(X_T5,X_T0,X_T4)
  %".8" = getelementptr inbounds {i64, i64, ptr, ptr, ptr, ptr}, ptr %"y.ctx", i32 0, i32 0
  store i64 0, ptr %".8"
  %".10" = getelementptr inbounds {i64, i64, ptr, ptr, ptr, ptr}, ptr %"y.ctx", i32 0, i32 1
  store i64 14, ptr %".10"
  %".12" = getelementptr inbounds {i64, i64, ptr, ptr, ptr, ptr}, ptr %"y.ctx", i32 0, i32 2
  store ptr %"X_I_1", ptr %".12"
  %".14" = getelementptr inbounds {i64, i64, ptr, ptr, ptr, ptr}, ptr %"y.ctx", i32 0, i32 3
  store ptr %"X_I_2", ptr %".14"
  %".16" = getelementptr inbounds {i64, i64, ptr, ptr, ptr, ptr}, ptr %"y.ctx", i32 0, i32 4
  store ptr %"X_I_0", ptr %".16"
  %".18" = getelementptr inbounds {i64, i64, ptr, ptr, ptr, ptr}, ptr %"y.ctx", i32 0, i32 5
  store ptr %"X_T6", ptr %".18"
  call void @"GOMP_parallel"(void (ptr)* @"kernel_0.parallel.1", ptr %"y.ctx", i32 0, i32 0)
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
  %".3" = getelementptr inbounds {i64, i64, ptr, ptr, ptr, ptr}, ptr %".1", i32 0, i32 0
  %".4" = load i64, ptr %".3"
  %".5" = getelementptr inbounds {i64, i64, ptr, ptr, ptr, ptr}, ptr %".1", i32 0, i32 1
  %".6" = load i64, ptr %".5"
  %".7" = getelementptr inbounds {i64, i64, ptr, ptr, ptr, ptr}, ptr %".1", i32 0, i32 2
  %".8" = load ptr, ptr %".7"
  %".9" = getelementptr inbounds {i64, i64, ptr, ptr, ptr, ptr}, ptr %".1", i32 0, i32 3
  %".10" = load ptr, ptr %".9"
  %".11" = getelementptr inbounds {i64, i64, ptr, ptr, ptr, ptr}, ptr %".1", i32 0, i32 4
  %".12" = load ptr, ptr %".11"
  %".13" = getelementptr inbounds {i64, i64, ptr, ptr, ptr, ptr}, ptr %".1", i32 0, i32 5
  %".14" = load ptr, ptr %".13"
  %".15" = call i32 @"omp_get_thread_num"()
  %".16" = sext i32 %".15" to i64
  %".17" = call i32 @"omp_get_num_threads"()
  %".18" = sext i32 %".17" to i64
  %".19" = sub i64 %".6", %".4"
  %".20" = add i64 %".19", 0
  %".21" = sdiv i64 %".20", 1
  %".22" = icmp slt i64 %".21", 0
  %".23" = select  i1 %".22", i64 0, i64 %".21"
  %".24" = sub i64 %".18", 1
  %".25" = add i64 %".23", %".24"
  %".26" = sdiv i64 %".25", %".18"
  %".27" = mul i64 %".16", %".26"
  %".28" = add i64 %".27", %".26"
  %".29" = icmp slt i64 %".28", %".23"
  %".30" = select  i1 %".29", i64 %".28", i64 %".23"
  store i64 %".27", ptr %"y.it.slot"
  br label %"y.it.head"
y.it.head:
  %"y.it" = load i64, ptr %"y.it.slot"
  %".33" = icmp slt i64 %"y.it", %".30"
  br i1 %".33", label %"y.it.body", label %"y.it.exit"
y.it.body:
  %".35" = mul i64 %"y.it", 1
  %"y" = add i64 %".4", %".35"
  ; kernel_0(X_I_1,X_I_2)+kernel_1(X_T3,X_I_0)+kernel_2(X_T4,X_T0)+kernel_3(X_T5,X_T0,X_T4)
  ; kernel_0(X_I_1,X_I_2)
  ; initialise what 'X_01' aggregates (add)
  store i64 0, ptr %"e1.slot"
  br label %"e1.head"
y.it.exit:
  ret void
e1.head:
  %"e1" = load i64, ptr %"e1.slot"
  %".42" = icmp slt i64 %"e1", 14
  br i1 %".42", label %"e1.body", label %"e1.exit"
e1.body:
  store i64 0, ptr %"e3.slot"
  br label %"e3.head"
e1.exit:
  store i64 0, ptr %"i.slot"
  br label %"i.head"
e3.head:
  %"e3" = load i64, ptr %"e3.slot"
  %".46" = icmp slt i64 %"e3", 16
  br i1 %".46", label %"e3.body", label %"e3.exit"
e3.body:
  %".48" = mul i64 %"e1", 16
  %".49" = add i64 %".48", %"e3"
  %".50" = getelementptr inbounds float, ptr %"X_01", i64 %".49"
  store float              0x0, ptr %".50", align 4
  %".52" = add i64 %"e3", 1
  store i64 %".52", ptr %"e3.slot"
  br label %"e3.head", !llvm.loop !2
e3.exit:
  %".55" = add i64 %"e1", 1
  store i64 %".55", ptr %"e1.slot"
  br label %"e1.head"
i.head:
  %"i" = load i64, ptr %"i.slot"
  %".60" = icmp slt i64 %"i", 3
  br i1 %".60", label %"i.body", label %"i.exit"
i.body:
  store i64 0, ptr %"j.slot"
  br label %"j.head"
i.exit:
  ; kernel_1(X_T3,X_I_0)+kernel_2(X_T4,X_T0)+kernel_3(X_T5,X_T0,X_T4)
  store i64 0, ptr %"i2.slot"
  br label %"i2.head"
j.head:
  %"j" = load i64, ptr %"j.slot"
  %".64" = icmp slt i64 %"j", 3
  br i1 %".64", label %"j.body", label %"j.exit"
j.body:
  ; #0
  %".67" = mul i64 %"i", 128
  %".68" = mul i64 %"j", 8
  %".69" = add i64 %".67", %".68"
  %".70" = mul i64 %"y", 8
  %".71" = add i64 %".69", %".70"
  %".72" = getelementptr inbounds float, ptr %".8", i64 %".71"
  %".73" = mul i64 %"i", 384
  %".74" = mul i64 %"j", 128
  %".75" = add i64 %".73", %".74"
  %".76" = getelementptr inbounds float, ptr %".10", i64 %".75"
  call void @"gemm"(ptr %".72", ptr %".76", ptr %"X_01", ptr %"gemm_scratch")
  %".78" = add i64 %"j", 1
  store i64 %".78", ptr %"j.slot"
  br label %"j.head"
j.exit:
  %".81" = add i64 %"i", 1
  store i64 %".81", ptr %"i.slot"
  br label %"i.head"
i2.head:
  %"i2" = load i64, ptr %"i2.slot"
  %".87" = icmp slt i64 %"i2", 14
  br i1 %".87", label %"i2.body", label %"i2.exit"
i2.body:
  store i64 0, ptr %"i4.slot"
  br label %"i4.head"
i2.exit:
  %".114" = add i64 %"y.it", 1
  store i64 %".114", ptr %"y.it.slot"
  br label %"y.it.head"
i4.head:
  %"i4" = load i64, ptr %"i4.slot"
  %".91" = icmp slt i64 %"i4", 16
  br i1 %".91", label %"i4.body", label %"i4.exit"
i4.body:
  %".93" = mul i64 %"i2", 16
  %".94" = add i64 %".93", %"i4"
  %".95" = getelementptr inbounds float, ptr %"X_01", i64 %".94"
  %"X_T3" = load float, ptr %".95", align 4
  %".97" = getelementptr inbounds float, ptr %".12", i64 %"i4"
  %"X_I_0_1" = load float, ptr %".97", align 4
  %"X_T4" = fadd float %"X_T3", %"X_I_0_1"
  %"X_T5" = fcmp olt float %"X_T4",              0x0
  %"X_T6_1" = select  i1 %"X_T5", float              0x0, float %"X_T4"
  %".102" = mul i64 %"i2", 224
  %".103" = add i64 %".102", %"i4"
  %".104" = mul i64 %"y", 16
  %".105" = add i64 %".103", %".104"
  %".106" = getelementptr inbounds float, ptr %".14", i64 %".105"
  store float %"X_T6_1", ptr %".106", align 4
  %".108" = add i64 %"i4", 1
  store i64 %".108", ptr %"i4.slot"
  br label %"i4.head", !llvm.loop !3
i4.exit:
  %".111" = add i64 %"i2", 1
  store i64 %".111", ptr %"i2.slot"
  br label %"i2.head"
}

declare i32 @"omp_get_thread_num"()

declare i32 @"omp_get_num_threads"()

declare void @"GOMP_parallel"(ptr %".1", ptr %".2", i32 %".3", i32 %".4")

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