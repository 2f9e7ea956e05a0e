; ModuleID = "plaidc"
target triple = "unknown-unknown-unknown"
target datalayout = ""

define internal void @"gemm"(ptr noalias %"A", ptr noalias %"B", ptr noalias %"C", ptr noalias %"scratch") "prefer-vector-width"="512"
{
entry:
  %"apack" = alloca [384 x float], align 64
  %"p.slot" = alloca i64
  %"k_1.slot" = alloca i64
  %"k_2.slot" = alloca i64
  %"j.slot" = alloca i64
  %"j_1.slot" = alloca i64
  %"i0.slot" = alloca i64
  %"k_3.slot" = alloca i64
  %"p_1.slot" = alloca i64
  %"c0_0" = alloca <16 x float>
  %"c0_1" = alloca <16 x float>
  %"c1_0" = alloca <16 x float>
  %"c1_1" = alloca <16 x float>
  %"c2_0" = alloca <16 x float>
  %"c2_1" = alloca <16 x float>
  %"c3_0" = alloca <16 x float>
  %"c3_1" = alloca <16 x float>
  %"c4_0" = alloca <16 x float>
  %"c4_1" = alloca <16 x float>
  %"c5_0" = alloca <16 x float>
  %"c5_1" = alloca <16 x float>
  %"c6_0" = alloca <16 x float>
  %"c6_1" = alloca <16 x float>
  %"c7_0" = alloca <16 x float>
  %"c7_1" = alloca <16 x float>
  %"k_4.slot" = alloca i64
  %"ctile" = alloca [256 x float], align 64
  %"c0_0_1" = alloca <16 x float>
  %"c0_1_1" = alloca <16 x float>
  %"c1_0_1" = alloca <16 x float>
  %"c1_1_1" = alloca <16 x float>
  %"c2_0_1" = alloca <16 x float>
  %"c2_1_1" = alloca <16 x float>
  %"c3_0_1" = alloca <16 x float>
  %"c3_1_1" = alloca <16 x float>
  %"c4_0_1" = alloca <16 x float>
  %"c4_1_1" = alloca <16 x float>
  %"c5_0_1" = alloca <16 x float>
  %"c5_1_1" = alloca <16 x float>
  %"c6_0_1" = alloca <16 x float>
  %"c6_1_1" = alloca <16 x float>
  %"c7_0_1" = alloca <16 x float>
  %"c7_1_1" = alloca <16 x float>
  %"k_5.slot" = alloca i64
  %"j_2.slot" = alloca i64
  %"j_3.slot" = alloca i64
  %"j_4.slot" = alloca i64
  %"j_5.slot" = alloca i64
  %"j_6.slot" = alloca i64
  %"j_7.slot" = alloca i64
  %"j_8.slot" = alloca i64
  %"j_9.slot" = alloca i64
  br label %"start"
start:
  ; micro-kernel C = A B: 32x80x48 fp32, A strides (48, 1), B strides (80, 1), C row stride 80; 8x32 register block
  store i64 0, ptr %"p.slot"
  br label %"p.head"
p.head:
  %"p" = load i64, ptr %"p.slot"
  %".9" = icmp slt i64 %"p", 2
  br i1 %".9", label %"p.body", label %"p.exit"
p.body:
  store i64 0, ptr %"k_1.slot"
  br label %"k_1.head"
p.exit:
  store i64 0, ptr %"k_2.slot"
  br label %"k_2.head"
k_1.head:
  %"k_1" = load i64, ptr %"k_1.slot"
  %".13" = icmp slt i64 %"k_1", 48
  br i1 %".13", label %"k_1.body", label %"k_1.exit"
k_1.body:
  %".15" = mul i64 %"k_1", 80
  %".16" = mul i64 %"p", 32
  %".17" = add i64 %".15", %".16"
  %".18" = getelementptr inbounds float, ptr %"B", i64 %".17"
  %".19" = load <16 x float>, ptr %".18", align 4
  %".20" = mul i64 %"k_1", 32
  %".21" = mul i64 %"p", 1536
  %".22" = add i64 %".20", %".21"
  %".23" = getelementptr inbounds float, ptr %"scratch", i64 %".22"
  store <16 x float> %".19", ptr %".23", align 4
  %".25" = mul i64 %"k_1", 80
  %".26" = mul i64 %"p", 32
  %".27" = add i64 %".25", %".26"
  %".28" = add i64 %".27", 16
  %".29" = getelementptr inbounds float, ptr %"B", i64 %".28"
  %".30" = load <16 x float>, ptr %".29", align 4
  %".31" = mul i64 %"k_1", 32
  %".32" = mul i64 %"p", 1536
  %".33" = add i64 %".31", %".32"
  %".34" = add i64 %".33", 16
  %".35" = getelementptr inbounds float, ptr %"scratch", i64 %".34"
  store <16 x float> %".30", ptr %".35", align 4
  %".37" = add i64 %"k_1", 1
  store i64 %".37", ptr %"k_1.slot"
  br label %"k_1.head"
k_1.exit:
  %".40" = add i64 %"p", 1
  store i64 %".40", ptr %"p.slot"
  br label %"p.head"
k_2.head:
  %"k_2" = load i64, ptr %"k_2.slot"
  %".45" = icmp slt i64 %"k_2", 48
  br i1 %".45", label %"k_2.body", label %"k_2.exit"
k_2.body:
  store i64 0, ptr %"j.slot"
  br label %"j.head"
k_2.exit:
  store i64 0, ptr %"i0.slot"
  br label %"i0.head"
j.head:
  %"j" = load i64, ptr %"j.slot"
  %".49" = icmp slt i64 %"j", 16
  br i1 %".49", label %"j.body", label %"j.exit"
j.body:
  %".51" = mul i64 %"k_2", 80
  %".52" = add i64 %"j", %".51"
  %".53" = add i64 %".52", 64
  %".54" = getelementptr inbounds float, ptr %"B", i64 %".53"
  %".55" = load float, ptr %".54", align 4
  %".56" = mul i64 %"k_2", 32
  %".57" = add i64 %"j", %".56"
  %".58" = add i64 %".57", 3072
  %".59" = getelementptr inbounds float, ptr %"scratch", i64 %".58"
  store float %".55", ptr %".59", align 4
  %".61" = add i64 %"j", 1
  store i64 %".61", ptr %"j.slot"
  br label %"j.head", !llvm.loop !2
j.exit:
  store i64 16, ptr %"j_1.slot"
  br label %"j_1.head"
j_1.head:
  %"j_1" = load i64, ptr %"j_1.slot"
  %".66" = icmp slt i64 %"j_1", 32
  br i1 %".66", label %"j_1.body", label %"j_1.exit"
j_1.body:
  %".68" = mul i64 %"k_2", 32
  %".69" = add i64 %"j_1", %".68"
  %".70" = add i64 %".69", 3072
  %".71" = getelementptr inbounds float, ptr %"scratch", i64 %".70"
  store float              0x0, ptr %".71", align 4
  %".73" = add i64 %"j_1", 1
  store i64 %".73", ptr %"j_1.slot"
  br label %"j_1.head", !llvm.loop !3
j_1.exit:
  %".76" = add i64 %"k_2", 1
  store i64 %".76", ptr %"k_2.slot"
  br label %"k_2.head"
i0.head:
  %"i0" = load i64, ptr %"i0.slot"
  %".81" = icmp slt i64 %"i0", 32
  br i1 %".81", label %"i0.body", label %"i0.exit"
i0.body:
  store i64 0, ptr %"k_3.slot"
  br label %"k_3.head"
i0.exit:
  ret void
k_3.head:
  %"k_3" = load i64, ptr %"k_3.slot"
  %".85" = icmp slt i64 %"k_3", 48
  br i1 %".85", label %"k_3.body", label %"k_3.exit"
k_3.body:
  %".87" = mul i64 %"i0", 48
  %".88" = add i64 %".87", %"k_3"
  %".89" = getelementptr inbounds float, ptr %"A", i64 %".88"
  %".90" = load float, ptr %".89", align 4
  %".91" = mul i64 %"k_3", 8
  %".92" = getelementptr inbounds float, ptr %"apack", i64 %".91"
  store float %".90", ptr %".92", align 4
  %".94" = mul i64 %"i0", 48
  %".95" = add i64 %".94", %"k_3"
  %".96" = add i64 %".95", 48
  %".97" = getelementptr inbounds float, ptr %"A", i64 %".96"
  %".98" = load float, ptr %".97", align 4
  %".99" = mul i64 %"k_3", 8
  %".100" = add i64 %".99", 1
  %".101" = getelementptr inbounds float, ptr %"apack", i64 %".100"
  store float %".98", ptr %".101", align 4
  %".103" = mul i64 %"i0", 48
  %".104" = add i64 %".103", %"k_3"
  %".105" = add i64 %".104", 96
  %".106" = getelementptr inbounds float, ptr %"A", i64 %".105"
  %".107" = load float, ptr %".106", align 4
  %".108" = mul i64 %"k_3", 8
  %".109" = add i64 %".108", 2
  %".110" = getelementptr inbounds float, ptr %"apack", i64 %".109"
  store float %".107", ptr %".110", align 4
  %".112" = mul i64 %"i0", 48
  %".113" = add i64 %".112", %"k_3"
  %".114" = add i64 %".113", 144
  %".115" = getelementptr inbounds float, ptr %"A", i64 %".114"
  %".116" = load float, ptr %".115", align 4
  %".117" = mul i64 %"k_3", 8
  %".118" = add i64 %".117", 3
  %".119" = getelementptr inbounds float, ptr %"apack", i64 %".118"
  store float %".116", ptr %".119", align 4
  %".121" = mul i64 %"i0", 48
  %".122" = add i64 %".121", %"k_3"
  %".123" = add i64 %".122", 192
  %".124" = getelementptr inbounds float, ptr %"A", i64 %".123"
  %".125" = load float, ptr %".124", align 4
  %".126" = mul i64 %"k_3", 8
  %".127" = add i64 %".126", 4
  %".128" = getelementptr inbounds float, ptr %"apack", i64 %".127"
  store float %".125", ptr %".128", align 4
  %".130" = mul i64 %"i0", 48
  %".131" = add i64 %".130", %"k_3"
  %".132" = add i64 %".131", 240
  %".133" = getelementptr inbounds float, ptr %"A", i64 %".132"
  %".134" = load float, ptr %".133", align 4
  %".135" = mul i64 %"k_3", 8
  %".136" = add i64 %".135", 5
  %".137" = getelementptr inbounds float, ptr %"apack", i64 %".136"
  store float %".134", ptr %".137", align 4
  %".139" = mul i64 %"i0", 48
  %".140" = add i64 %".139", %"k_3"
  %".141" = add i64 %".140", 288
  %".142" = getelementptr inbounds float, ptr %"A", i64 %".141"
  %".143" = load float, ptr %".142", align 4
  %".144" = mul i64 %"k_3", 8
  %".145" = add i64 %".144", 6
  %".146" = getelementptr inbounds float, ptr %"apack", i64 %".145"
  store float %".143", ptr %".146", align 4
  %".148" = mul i64 %"i0", 48
  %".149" = add i64 %".148", %"k_3"
  %".150" = add i64 %".149", 336
  %".151" = getelementptr inbounds float, ptr %"A", i64 %".150"
  %".152" = load float, ptr %".151", align 4
  %".153" = mul i64 %"k_3", 8
  %".154" = add i64 %".153", 7
  %".155" = getelementptr inbounds float, ptr %"apack", i64 %".154"
  store float %".152", ptr %".155", align 4
  %".157" = add i64 %"k_3", 1
  store i64 %".157", ptr %"k_3.slot"
  br label %"k_3.head"
k_3.exit:
  store i64 0, ptr %"p_1.slot"
  br label %"p_1.head"
p_1.head:
  %"p_1" = load i64, ptr %"p_1.slot"
  %".162" = icmp slt i64 %"p_1", 2
  br i1 %".162", label %"p_1.body", label %"p_1.exit"
p_1.body:
  %".164" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".165" = shufflevector <16 x float> %".164", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".165", ptr %"c0_0"
  %".167" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".168" = shufflevector <16 x float> %".167", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".168", ptr %"c0_1"
  %".170" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".171" = shufflevector <16 x float> %".170", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".171", ptr %"c1_0"
  %".173" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".174" = shufflevector <16 x float> %".173", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".174", ptr %"c1_1"
  %".176" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".177" = shufflevector <16 x float> %".176", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".177", ptr %"c2_0"
  %".179" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".180" = shufflevector <16 x float> %".179", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".180", ptr %"c2_1"
  %".182" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".183" = shufflevector <16 x float> %".182", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".183", ptr %"c3_0"
  %".185" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".186" = shufflevector <16 x float> %".185", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".186", ptr %"c3_1"
  %".188" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".189" = shufflevector <16 x float> %".188", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".189", ptr %"c4_0"
  %".191" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".192" = shufflevector <16 x float> %".191", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".192", ptr %"c4_1"
  %".194" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".195" = shufflevector <16 x float> %".194", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".195", ptr %"c5_0"
  %".197" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".198" = shufflevector <16 x float> %".197", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".198", ptr %"c5_1"
  %".200" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".201" = shufflevector <16 x float> %".200", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".201", ptr %"c6_0"
  %".203" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".204" = shufflevector <16 x float> %".203", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".204", ptr %"c6_1"
  %".206" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".207" = shufflevector <16 x float> %".206", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".207", ptr %"c7_0"
  %".209" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".210" = shufflevector <16 x float> %".209", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".210", ptr %"c7_1"
  store i64 0, ptr %"k_4.slot"
  br label %"k_4.head"
p_1.exit:
  %".439" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".440" = shufflevector <16 x float> %".439", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".440", ptr %"c0_0_1"
  %".442" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".443" = shufflevector <16 x float> %".442", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".443", ptr %"c0_1_1"
  %".445" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".446" = shufflevector <16 x float> %".445", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".446", ptr %"c1_0_1"
  %".448" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".449" = shufflevector <16 x float> %".448", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".449", ptr %"c1_1_1"
  %".451" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".452" = shufflevector <16 x float> %".451", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".452", ptr %"c2_0_1"
  %".454" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".455" = shufflevector <16 x float> %".454", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".455", ptr %"c2_1_1"
  %".457" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".458" = shufflevector <16 x float> %".457", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".458", ptr %"c3_0_1"
  %".460" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".461" = shufflevector <16 x float> %".460", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".461", ptr %"c3_1_1"
  %".463" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".464" = shufflevector <16 x float> %".463", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".464", ptr %"c4_0_1"
  %".466" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".467" = shufflevector <16 x float> %".466", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".467", ptr %"c4_1_1"
  %".469" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".470" = shufflevector <16 x float> %".469", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".470", ptr %"c5_0_1"
  %".472" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".473" = shufflevector <16 x float> %".472", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".473", ptr %"c5_1_1"
  %".475" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".476" = shufflevector <16 x float> %".475", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".476", ptr %"c6_0_1"
  %".478" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".479" = shufflevector <16 x float> %".478", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".479", ptr %"c6_1_1"
  %".481" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".482" = shufflevector <16 x float> %".481", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".482", ptr %"c7_0_1"
  %".484" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".485" = shufflevector <16 x float> %".484", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".485", ptr %"c7_1_1"
  store i64 0, ptr %"k_5.slot"
  br label %"k_5.head"
k_4.head:
  %"k_4" = load i64, ptr %"k_4.slot"
  %".214" = icmp slt i64 %"k_4", 48
  br i1 %".214", label %"k_4.body", label %"k_4.exit"
k_4.body:
  %".216" = mul i64 %"k_4", 32
  %".217" = mul i64 %"p_1", 1536
  %".218" = add i64 %".216", %".217"
  %".219" = getelementptr inbounds float, ptr %"scratch", i64 %".218"
  %"b0" = load <16 x float>, ptr %".219", align 4
  %".221" = mul i64 %"k_4", 32
  %".222" = mul i64 %"p_1", 1536
  %".223" = add i64 %".221", %".222"
  %".224" = add i64 %".223", 16
  %".225" = getelementptr inbounds float, ptr %"scratch", i64 %".224"
  %"b1" = load <16 x float>, ptr %".225", align 4
  %".227" = mul i64 %"k_4", 8
  %".228" = getelementptr inbounds float, ptr %"apack", i64 %".227"
  %".229" = load float, ptr %".228", align 4
  %".230" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".229", i32 0
  %"a0" = shufflevector <16 x float> %".230", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".232" = load <16 x float>, ptr %"c0_0"
  %".233" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a0", <16 x float> %"b0", <16 x float> %".232")
  store <16 x float> %".233", ptr %"c0_0"
  %".235" = load <16 x float>, ptr %"c0_1"
  %".236" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a0", <16 x float> %"b1", <16 x float> %".235")
  store <16 x float> %".236", ptr %"c0_1"
  %".238" = mul i64 %"k_4", 8
  %".239" = add i64 %".238", 1
  %".240" = getelementptr inbounds float, ptr %"apack", i64 %".239"
  %".241" = load float, ptr %".240", align 4
  %".242" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".241", i32 0
  %"a1" = shufflevector <16 x float> %".242", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".244" = load <16 x float>, ptr %"c1_0"
  %".245" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a1", <16 x float> %"b0", <16 x float> %".244")
  store <16 x float> %".245", ptr %"c1_0"
  %".247" = load <16 x float>, ptr %"c1_1"
  %".248" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a1", <16 x float> %"b1", <16 x float> %".247")
  store <16 x float> %".248", ptr %"c1_1"
  %".250" = mul i64 %"k_4", 8
  %".251" = add i64 %".250", 2
  %".252" = getelementptr inbounds float, ptr %"apack", i64 %".251"
  %".253" = load float, ptr %".252", align 4
  %".254" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".253", i32 0
  %"a2" = shufflevector <16 x float> %".254", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".256" = load <16 x float>, ptr %"c2_0"
  %".257" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a2", <16 x float> %"b0", <16 x float> %".256")
  store <16 x float> %".257", ptr %"c2_0"
  %".259" = load <16 x float>, ptr %"c2_1"
  %".260" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a2", <16 x float> %"b1", <16 x float> %".259")
  store <16 x float> %".260", ptr %"c2_1"
  %".262" = mul i64 %"k_4", 8
  %".263" = add i64 %".262", 3
  %".264" = getelementptr inbounds float, ptr %"apack", i64 %".263"
  %".265" = load float, ptr %".264", align 4
  %".266" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".265", i32 0
  %"a3" = shufflevector <16 x float> %".266", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".268" = load <16 x float>, ptr %"c3_0"
  %".269" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a3", <16 x float> %"b0", <16 x float> %".268")
  store <16 x float> %".269", ptr %"c3_0"
  %".271" = load <16 x float>, ptr %"c3_1"
  %".272" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a3", <16 x float> %"b1", <16 x float> %".271")
  store <16 x float> %".272", ptr %"c3_1"
  %".274" = mul i64 %"k_4", 8
  %".275" = add i64 %".274", 4
  %".276" = getelementptr inbounds float, ptr %"apack", i64 %".275"
  %".277" = load float, ptr %".276", align 4
  %".278" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".277", i32 0
  %"a4" = shufflevector <16 x float> %".278", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".280" = load <16 x float>, ptr %"c4_0"
  %".281" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a4", <16 x float> %"b0", <16 x float> %".280")
  store <16 x float> %".281", ptr %"c4_0"
  %".283" = load <16 x float>, ptr %"c4_1"
  %".284" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a4", <16 x float> %"b1", <16 x float> %".283")
  store <16 x float> %".284", ptr %"c4_1"
  %".286" = mul i64 %"k_4", 8
  %".287" = add i64 %".286", 5
  %".288" = getelementptr inbounds float, ptr %"apack", i64 %".287"
  %".289" = load float, ptr %".288", align 4
  %".290" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".289", i32 0
  %"a5" = shufflevector <16 x float> %".290", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".292" = load <16 x float>, ptr %"c5_0"
  %".293" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a5", <16 x float> %"b0", <16 x float> %".292")
  store <16 x float> %".293", ptr %"c5_0"
  %".295" = load <16 x float>, ptr %"c5_1"
  %".296" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a5", <16 x float> %"b1", <16 x float> %".295")
  store <16 x float> %".296", ptr %"c5_1"
  %".298" = mul i64 %"k_4", 8
  %".299" = add i64 %".298", 6
  %".300" = getelementptr inbounds float, ptr %"apack", i64 %".299"
  %".301" = load float, ptr %".300", align 4
  %".302" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".301", i32 0
  %"a6" = shufflevector <16 x float> %".302", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".304" = load <16 x float>, ptr %"c6_0"
  %".305" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a6", <16 x float> %"b0", <16 x float> %".304")
  store <16 x float> %".305", ptr %"c6_0"
  %".307" = load <16 x float>, ptr %"c6_1"
  %".308" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a6", <16 x float> %"b1", <16 x float> %".307")
  store <16 x float> %".308", ptr %"c6_1"
  %".310" = mul i64 %"k_4", 8
  %".311" = add i64 %".310", 7
  %".312" = getelementptr inbounds float, ptr %"apack", i64 %".311"
  %".313" = load float, ptr %".312", align 4
  %".314" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".313", i32 0
  %"a7" = shufflevector <16 x float> %".314", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".316" = load <16 x float>, ptr %"c7_0"
  %".317" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a7", <16 x float> %"b0", <16 x float> %".316")
  store <16 x float> %".317", ptr %"c7_0"
  %".319" = load <16 x float>, ptr %"c7_1"
  %".320" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a7", <16 x float> %"b1", <16 x float> %".319")
  store <16 x float> %".320", ptr %"c7_1"
  %".322" = add i64 %"k_4", 1
  store i64 %".322", ptr %"k_4.slot"
  br label %"k_4.head"
k_4.exit:
  %".325" = load <16 x float>, ptr %"c0_0"
  %".326" = mul i64 %"i0", 80
  %".327" = mul i64 %"p_1", 32
  %".328" = add i64 %".326", %".327"
  %".329" = getelementptr inbounds float, ptr %"C", i64 %".328"
  store <16 x float> %".325", ptr %".329", align 4
  %".331" = load <16 x float>, ptr %"c0_1"
  %".332" = mul i64 %"i0", 80
  %".333" = mul i64 %"p_1", 32
  %".334" = add i64 %".332", %".333"
  %".335" = add i64 %".334", 16
  %".336" = getelementptr inbounds float, ptr %"C", i64 %".335"
  store <16 x float> %".331", ptr %".336", align 4
  %".338" = load <16 x float>, ptr %"c1_0"
  %".339" = mul i64 %"i0", 80
  %".340" = mul i64 %"p_1", 32
  %".341" = add i64 %".339", %".340"
  %".342" = add i64 %".341", 80
  %".343" = getelementptr inbounds float, ptr %"C", i64 %".342"
  store <16 x float> %".338", ptr %".343", align 4
  %".345" = load <16 x float>, ptr %"c1_1"
  %".346" = mul i64 %"i0", 80
  %".347" = mul i64 %"p_1", 32
  %".348" = add i64 %".346", %".347"
  %".349" = add i64 %".348", 96
  %".350" = getelementptr inbounds float, ptr %"C", i64 %".349"
  store <16 x float> %".345", ptr %".350", align 4
  %".352" = load <16 x float>, ptr %"c2_0"
  %".353" = mul i64 %"i0", 80
  %".354" = mul i64 %"p_1", 32
  %".355" = add i64 %".353", %".354"
  %".356" = add i64 %".355", 160
  %".357" = getelementptr inbounds float, ptr %"C", i64 %".356"
  store <16 x float> %".352", ptr %".357", align 4
  %".359" = load <16 x float>, ptr %"c2_1"
  %".360" = mul i64 %"i0", 80
  %".361" = mul i64 %"p_1", 32
  %".362" = add i64 %".360", %".361"
  %".363" = add i64 %".362", 176
  %".364" = getelementptr inbounds float, ptr %"C", i64 %".363"
  store <16 x float> %".359", ptr %".364", align 4
  %".366" = load <16 x float>, ptr %"c3_0"
  %".367" = mul i64 %"i0", 80
  %".368" = mul i64 %"p_1", 32
  %".369" = add i64 %".367", %".368"
  %".370" = add i64 %".369", 240
  %".371" = getelementptr inbounds float, ptr %"C", i64 %".370"
  store <16 x float> %".366", ptr %".371", align 4
  %".373" = load <16 x float>, ptr %"c3_1"
  %".374" = mul i64 %"i0", 80
  %".375" = mul i64 %"p_1", 32
  %".376" = add i64 %".374", %".375"
  %".377" = add i64 %".376", 256
  %".378" = getelementptr inbounds float, ptr %"C", i64 %".377"
  store <16 x float> %".373", ptr %".378", align 4
  %".380" = load <16 x float>, ptr %"c4_0"
  %".381" = mul i64 %"i0", 80
  %".382" = mul i64 %"p_1", 32
  %".383" = add i64 %".381", %".382"
  %".384" = add i64 %".383", 320
  %".385" = getelementptr inbounds float, ptr %"C", i64 %".384"
  store <16 x float> %".380", ptr %".385", align 4
  %".387" = load <16 x float>, ptr %"c4_1"
  %".388" = mul i64 %"i0", 80
  %".389" = mul i64 %"p_1", 32
  %".390" = add i64 %".388", %".389"
  %".391" = add i64 %".390", 336
  %".392" = getelementptr inbounds float, ptr %"C", i64 %".391"
  store <16 x float> %".387", ptr %".392", align 4
  %".394" = load <16 x float>, ptr %"c5_0"
  %".395" = mul i64 %"i0", 80
  %".396" = mul i64 %"p_1", 32
  %".397" = add i64 %".395", %".396"
  %".398" = add i64 %".397", 400
  %".399" = getelementptr inbounds float, ptr %"C", i64 %".398"
  store <16 x float> %".394", ptr %".399", align 4
  %".401" = load <16 x float>, ptr %"c5_1"
  %".402" = mul i64 %"i0", 80
  %".403" = mul i64 %"p_1", 32
  %".404" = add i64 %".402", %".403"
  %".405" = add i64 %".404", 416
  %".406" = getelementptr inbounds float, ptr %"C", i64 %".405"
  store <16 x float> %".401", ptr %".406", align 4
  %".408" = load <16 x float>, ptr %"c6_0"
  %".409" = mul i64 %"i0", 80
  %".410" = mul i64 %"p_1", 32
  %".411" = add i64 %".409", %".410"
  %".412" = add i64 %".411", 480
  %".413" = getelementptr inbounds float, ptr %"C", i64 %".412"
  store <16 x float> %".408", ptr %".413", align 4
  %".415" = load <16 x float>, ptr %"c6_1"
  %".416" = mul i64 %"i0", 80
  %".417" = mul i64 %"p_1", 32
  %".418" = add i64 %".416", %".417"
  %".419" = add i64 %".418", 496
  %".420" = getelementptr inbounds float, ptr %"C", i64 %".419"
  store <16 x float> %".415", ptr %".420", align 4
  %".422" = load <16 x float>, ptr %"c7_0"
  %".423" = mul i64 %"i0", 80
  %".424" = mul i64 %"p_1", 32
  %".425" = add i64 %".423", %".424"
  %".426" = add i64 %".425", 560
  %".427" = getelementptr inbounds float, ptr %"C", i64 %".426"
  store <16 x float> %".422", ptr %".427", align 4
  %".429" = load <16 x float>, ptr %"c7_1"
  %".430" = mul i64 %"i0", 80
  %".431" = mul i64 %"p_1", 32
  %".432" = add i64 %".430", %".431"
  %".433" = add i64 %".432", 576
  %".434" = getelementptr inbounds float, ptr %"C", i64 %".433"
  store <16 x float> %".429", ptr %".434", align 4
  %".436" = add i64 %"p_1", 1
  store i64 %".436", ptr %"p_1.slot"
  br label %"p_1.head"
k_5.head:
  %"k_5" = load i64, ptr %"k_5.slot"
  %".489" = icmp slt i64 %"k_5", 48
  br i1 %".489", label %"k_5.body", label %"k_5.exit"
k_5.body:
  %".491" = mul i64 %"k_5", 32
  %".492" = add i64 %".491", 3072
  %".493" = getelementptr inbounds float, ptr %"scratch", i64 %".492"
  %"b0_1" = load <16 x float>, ptr %".493", align 4
  %".495" = mul i64 %"k_5", 32
  %".496" = add i64 %".495", 3088
  %".497" = getelementptr inbounds float, ptr %"scratch", i64 %".496"
  %"b1_1" = load <16 x float>, ptr %".497", align 4
  %".499" = mul i64 %"k_5", 8
  %".500" = getelementptr inbounds float, ptr %"apack", i64 %".499"
  %".501" = load float, ptr %".500", align 4
  %".502" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".501", i32 0
  %"a0_1" = shufflevector <16 x float> %".502", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".504" = load <16 x float>, ptr %"c0_0_1"
  %".505" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a0_1", <16 x float> %"b0_1", <16 x float> %".504")
  store <16 x float> %".505", ptr %"c0_0_1"
  %".507" = load <16 x float>, ptr %"c0_1_1"
  %".508" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a0_1", <16 x float> %"b1_1", <16 x float> %".507")
  store <16 x float> %".508", ptr %"c0_1_1"
  %".510" = mul i64 %"k_5", 8
  %".511" = add i64 %".510", 1
  %".512" = getelementptr inbounds float, ptr %"apack", i64 %".511"
  %".513" = load float, ptr %".512", align 4
  %".514" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".513", i32 0
  %"a1_1" = shufflevector <16 x float> %".514", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".516" = load <16 x float>, ptr %"c1_0_1"
  %".517" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a1_1", <16 x float> %"b0_1", <16 x float> %".516")
  store <16 x float> %".517", ptr %"c1_0_1"
  %".519" = load <16 x float>, ptr %"c1_1_1"
  %".520" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a1_1", <16 x float> %"b1_1", <16 x float> %".519")
  store <16 x float> %".520", ptr %"c1_1_1"
  %".522" = mul i64 %"k_5", 8
  %".523" = add i64 %".522", 2
  %".524" = getelementptr inbounds float, ptr %"apack", i64 %".523"
  %".525" = load float, ptr %".524", align 4
  %".526" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".525", i32 0
  %"a2_1" = shufflevector <16 x float> %".526", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".528" = load <16 x float>, ptr %"c2_0_1"
  %".529" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a2_1", <16 x float> %"b0_1", <16 x float> %".528")
  store <16 x float> %".529", ptr %"c2_0_1"
  %".531" = load <16 x float>, ptr %"c2_1_1"
  %".532" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a2_1", <16 x float> %"b1_1", <16 x float> %".531")
  store <16 x float> %".532", ptr %"c2_1_1"
  %".534" = mul i64 %"k_5", 8
  %".535" = add i64 %".534", 3
  %".536" = getelementptr inbounds float, ptr %"apack", i64 %".535"
  %".537" = load float, ptr %".536", align 4
  %".538" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".537", i32 0
  %"a3_1" = shufflevector <16 x float> %".538", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".540" = load <16 x float>, ptr %"c3_0_1"
  %".541" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a3_1", <16 x float> %"b0_1", <16 x float> %".540")
  store <16 x float> %".541", ptr %"c3_0_1"
  %".543" = load <16 x float>, ptr %"c3_1_1"
  %".544" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a3_1", <16 x float> %"b1_1", <16 x float> %".543")
  store <16 x float> %".544", ptr %"c3_1_1"
  %".546" = mul i64 %"k_5", 8
  %".547" = add i64 %".546", 4
  %".548" = getelementptr inbounds float, ptr %"apack", i64 %".547"
  %".549" = load float, ptr %".548", align 4
  %".550" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".549", i32 0
  %"a4_1" = shufflevector <16 x float> %".550", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".552" = load <16 x float>, ptr %"c4_0_1"
  %".553" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a4_1", <16 x float> %"b0_1", <16 x float> %".552")
  store <16 x float> %".553", ptr %"c4_0_1"
  %".555" = load <16 x float>, ptr %"c4_1_1"
  %".556" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a4_1", <16 x float> %"b1_1", <16 x float> %".555")
  store <16 x float> %".556", ptr %"c4_1_1"
  %".558" = mul i64 %"k_5", 8
  %".559" = add i64 %".558", 5
  %".560" = getelementptr inbounds float, ptr %"apack", i64 %".559"
  %".561" = load float, ptr %".560", align 4
  %".562" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".561", i32 0
  %"a5_1" = shufflevector <16 x float> %".562", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".564" = load <16 x float>, ptr %"c5_0_1"
  %".565" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a5_1", <16 x float> %"b0_1", <16 x float> %".564")
  store <16 x float> %".565", ptr %"c5_0_1"
  %".567" = load <16 x float>, ptr %"c5_1_1"
  %".568" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a5_1", <16 x float> %"b1_1", <16 x float> %".567")
  store <16 x float> %".568", ptr %"c5_1_1"
  %".570" = mul i64 %"k_5", 8
  %".571" = add i64 %".570", 6
  %".572" = getelementptr inbounds float, ptr %"apack", i64 %".571"
  %".573" = load float, ptr %".572", align 4
  %".574" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".573", i32 0
  %"a6_1" = shufflevector <16 x float> %".574", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".576" = load <16 x float>, ptr %"c6_0_1"
  %".577" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a6_1", <16 x float> %"b0_1", <16 x float> %".576")
  store <16 x float> %".577", ptr %"c6_0_1"
  %".579" = load <16 x float>, ptr %"c6_1_1"
  %".580" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a6_1", <16 x float> %"b1_1", <16 x float> %".579")
  store <16 x float> %".580", ptr %"c6_1_1"
  %".582" = mul i64 %"k_5", 8
  %".583" = add i64 %".582", 7
  %".584" = getelementptr inbounds float, ptr %"apack", i64 %".583"
  %".585" = load float, ptr %".584", align 4
  %".586" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".585", i32 0
  %"a7_1" = shufflevector <16 x float> %".586", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".588" = load <16 x float>, ptr %"c7_0_1"
  %".589" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a7_1", <16 x float> %"b0_1", <16 x float> %".588")
  store <16 x float> %".589", ptr %"c7_0_1"
  %".591" = load <16 x float>, ptr %"c7_1_1"
  %".592" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a7_1", <16 x float> %"b1_1", <16 x float> %".591")
  store <16 x float> %".592", ptr %"c7_1_1"
  %".594" = add i64 %"k_5", 1
  store i64 %".594", ptr %"k_5.slot"
  br label %"k_5.head"
k_5.exit:
  %".597" = load <16 x float>, ptr %"c0_0_1"
  %".598" = getelementptr inbounds float, ptr %"ctile", i64 0
  store <16 x float> %".597", ptr %".598", align 4
  %".600" = load <16 x float>, ptr %"c0_1_1"
  %".601" = getelementptr inbounds float, ptr %"ctile", i64 16
  store <16 x float> %".600", ptr %".601", align 4
  %".603" = load <16 x float>, ptr %"c1_0_1"
  %".604" = getelementptr inbounds float, ptr %"ctile", i64 32
  store <16 x float> %".603", ptr %".604", align 4
  %".606" = load <16 x float>, ptr %"c1_1_1"
  %".607" = getelementptr inbounds float, ptr %"ctile", i64 48
  store <16 x float> %".606", ptr %".607", align 4
  %".609" = load <16 x float>, ptr %"c2_0_1"
  %".610" = getelementptr inbounds float, ptr %"ctile", i64 64
  store <16 x float> %".609", ptr %".610", align 4
  %".612" = load <16 x float>, ptr %"c2_1_1"
  %".613" = getelementptr inbounds float, ptr %"ctile", i64 80
  store <16 x float> %".612", ptr %".613", align 4
  %".615" = load <16 x float>, ptr %"c3_0_1"
  %".616" = getelementptr inbounds float, ptr %"ctile", i64 96
  store <16 x float> %".615", ptr %".616", align 4
  %".618" = load <16 x float>, ptr %"c3_1_1"
  %".619" = getelementptr inbounds float, ptr %"ctile", i64 112
  store <16 x float> %".618", ptr %".619", align 4
  %".621" = load <16 x float>, ptr %"c4_0_1"
  %".622" = getelementptr inbounds float, ptr %"ctile", i64 128
  store <16 x float> %".621", ptr %".622", align 4
  %".624" = load <16 x float>, ptr %"c4_1_1"
  %".625" = getelementptr inbounds float, ptr %"ctile", i64 144
  store <16 x float> %".624", ptr %".625", align 4
  %".627" = load <16 x float>, ptr %"c5_0_1"
  %".628" = getelementptr inbounds float, ptr %"ctile", i64 160
  store <16 x float> %".627", ptr %".628", align 4
  %".630" = load <16 x float>, ptr %"c5_1_1"
  %".631" = getelementptr inbounds float, ptr %"ctile", i64 176
  store <16 x float> %".630", ptr %".631", align 4
  %".633" = load <16 x float>, ptr %"c6_0_1"
  %".634" = getelementptr inbounds float, ptr %"ctile", i64 192
  store <16 x float> %".633", ptr %".634", align 4
  %".636" = load <16 x float>, ptr %"c6_1_1"
  %".637" = getelementptr inbounds float, ptr %"ctile", i64 208
  store <16 x float> %".636", ptr %".637", align 4
  %".639" = load <16 x float>, ptr %"c7_0_1"
  %".640" = getelementptr inbounds float, ptr %"ctile", i64 224
  store <16 x float> %".639", ptr %".640", align 4
  %".642" = load <16 x float>, ptr %"c7_1_1"
  %".643" = getelementptr inbounds float, ptr %"ctile", i64 240
  store <16 x float> %".642", ptr %".643", align 4
  store i64 0, ptr %"j_2.slot"
  br label %"j_2.head"
j_2.head:
  %"j_2" = load i64, ptr %"j_2.slot"
  %".647" = icmp slt i64 %"j_2", 16
  br i1 %".647", label %"j_2.body", label %"j_2.exit"
j_2.body:
  %".649" = getelementptr inbounds float, ptr %"ctile", i64 %"j_2"
  %".650" = load float, ptr %".649", align 4
  %".651" = mul i64 %"i0", 80
  %".652" = add i64 %".651", %"j_2"
  %".653" = add i64 %".652", 64
  %".654" = getelementptr inbounds float, ptr %"C", i64 %".653"
  store float %".650", ptr %".654", align 4
  %".656" = add i64 %"j_2", 1
  store i64 %".656", ptr %"j_2.slot"
  br label %"j_2.head", !llvm.loop !4
j_2.exit:
  store i64 0, ptr %"j_3.slot"
  br label %"j_3.head"
j_3.head:
  %"j_3" = load i64, ptr %"j_3.slot"
  %".661" = icmp slt i64 %"j_3", 16
  br i1 %".661", label %"j_3.body", label %"j_3.exit"
j_3.body:
  %".663" = add i64 %"j_3", 32
  %".664" = getelementptr inbounds float, ptr %"ctile", i64 %".663"
  %".665" = load float, ptr %".664", align 4
  %".666" = mul i64 %"i0", 80
  %".667" = add i64 %".666", %"j_3"
  %".668" = add i64 %".667", 144
  %".669" = getelementptr inbounds float, ptr %"C", i64 %".668"
  store float %".665", ptr %".669", align 4
  %".671" = add i64 %"j_3", 1
  store i64 %".671", ptr %"j_3.slot"
  br label %"j_3.head", !llvm.loop !5
j_3.exit:
  store i64 0, ptr %"j_4.slot"
  br label %"j_4.head"
j_4.head:
  %"j_4" = load i64, ptr %"j_4.slot"
  %".676" = icmp slt i64 %"j_4", 16
  br i1 %".676", label %"j_4.body", label %"j_4.exit"
j_4.body:
  %".678" = add i64 %"j_4", 64
  %".679" = getelementptr inbounds float, ptr %"ctile", i64 %".678"
  %".680" = load float, ptr %".679", align 4
  %".681" = mul i64 %"i0", 80
  %".682" = add i64 %".681", %"j_4"
  %".683" = add i64 %".682", 224
  %".684" = getelementptr inbounds float, ptr %"C", i64 %".683"
  store float %".680", ptr %".684", align 4
  %".686" = add i64 %"j_4", 1
  store i64 %".686", ptr %"j_4.slot"
  br label %"j_4.head", !llvm.loop !6
j_4.exit:
  store i64 0, ptr %"j_5.slot"
  br label %"j_5.head"
j_5.head:
  %"j_5" = load i64, ptr %"j_5.slot"
  %".691" = icmp slt i64 %"j_5", 16
  br i1 %".691", label %"j_5.body", label %"j_5.exit"
j_5.body:
  %".693" = add i64 %"j_5", 96
  %".694" = getelementptr inbounds float, ptr %"ctile", i64 %".693"
  %".695" = load float, ptr %".694", align 4
  %".696" = mul i64 %"i0", 80
  %".697" = add i64 %".696", %"j_5"
  %".698" = add i64 %".697", 304
  %".699" = getelementptr inbounds float, ptr %"C", i64 %".698"
  store float %".695", ptr %".699", align 4
  %".701" = add i64 %"j_5", 1
  store i64 %".701", ptr %"j_5.slot"
  br label %"j_5.head", !llvm.loop !7
j_5.exit:
  store i64 0, ptr %"j_6.slot"
  br label %"j_6.head"
j_6.head:
  %"j_6" = load i64, ptr %"j_6.slot"
  %".706" = icmp slt i64 %"j_6", 16
  br i1 %".706", label %"j_6.body", label %"j_6.exit"
j_6.body:
  %".708" = add i64 %"j_6", 128
  %".709" = getelementptr inbounds float, ptr %"ctile", i64 %".708"
  %".710" = load float, ptr %".709", align 4
  %".711" = mul i64 %"i0", 80
  %".712" = add i64 %".711", %"j_6"
  %".713" = add i64 %".712", 384
  %".714" = getelementptr inbounds float, ptr %"C", i64 %".713"
  store float %".710", ptr %".714", align 4
  %".716" = add i64 %"j_6", 1
  store i64 %".716", ptr %"j_6.slot"
  br label %"j_6.head", !llvm.loop !8
j_6.exit:
  store i64 0, ptr %"j_7.slot"
  br label %"j_7.head"
j_7.head:
  %"j_7" = load i64, ptr %"j_7.slot"
  %".721" = icmp slt i64 %"j_7", 16
  br i1 %".721", label %"j_7.body", label %"j_7.exit"
j_7.body:
  %".723" = add i64 %"j_7", 160
  %".724" = getelementptr inbounds float, ptr %"ctile", i64 %".723"
  %".725" = load float, ptr %".724", align 4
  %".726" = mul i64 %"i0", 80
  %".727" = add i64 %".726", %"j_7"
  %".728" = add i64 %".727", 464
  %".729" = getelementptr inbounds float, ptr %"C", i64 %".728"
  store float %".725", ptr %".729", align 4
  %".731" = add i64 %"j_7", 1
  store i64 %".731", ptr %"j_7.slot"
  br label %"j_7.head", !llvm.loop !9
j_7.exit:
  store i64 0, ptr %"j_8.slot"
  br label %"j_8.head"
j_8.head:
  %"j_8" = load i64, ptr %"j_8.slot"
  %".736" = icmp slt i64 %"j_8", 16
  br i1 %".736", label %"j_8.body", label %"j_8.exit"
j_8.body:
  %".738" = add i64 %"j_8", 192
  %".739" = getelementptr inbounds float, ptr %"ctile", i64 %".738"
  %".740" = load float, ptr %".739", align 4
  %".741" = mul i64 %"i0", 80
  %".742" = add i64 %".741", %"j_8"
  %".743" = add i64 %".742", 544
  %".744" = getelementptr inbounds float, ptr %"C", i64 %".743"
  store float %".740", ptr %".744", align 4
  %".746" = add i64 %"j_8", 1
  store i64 %".746", ptr %"j_8.slot"
  br label %"j_8.head", !llvm.loop !10
j_8.exit:
  store i64 0, ptr %"j_9.slot"
  br label %"j_9.head"
j_9.head:
  %"j_9" = load i64, ptr %"j_9.slot"
  %".751" = icmp slt i64 %"j_9", 16
  br i1 %".751", label %"j_9.body", label %"j_9.exit"
j_9.body:
  %".753" = add i64 %"j_9", 224
  %".754" = getelementptr inbounds float, ptr %"ctile", i64 %".753"
  %".755" = load float, ptr %".754", align 4
  %".756" = mul i64 %"i0", 80
  %".757" = add i64 %".756", %"j_9"
  %".758" = add i64 %".757", 624
  %".759" = getelementptr inbounds float, ptr %"C", i64 %".758"
  store float %".755", ptr %".759", align 4
  %".761" = add i64 %"j_9", 1
  store i64 %".761", ptr %"j_9.slot"
  br label %"j_9.head", !llvm.loop !11
j_9.exit:
  %".764" = add i64 %"i0", 8
  store i64 %".764", ptr %"i0.slot"
  br label %"i0.head"
}

define internal void @"kernel_0"(ptr noalias %"X_I_0", ptr noalias %"X_I_1", ptr noalias %"X_T2") "prefer-vector-width"="512"
{
entry:
  %"m.ctx" = alloca {i64, i64, ptr, ptr, ptr}
  br label %"start"
start:
  ; kernel_0
  ; kernel_0(X_I_0,X_I_1): X_T2[m, n : _T0, _T1] = +(X_I_0[m, k] * X_I_1[k, n])
  %".7" = getelementptr inbounds {i64, i64, ptr, ptr, ptr}, ptr %"m.ctx", i32 0, i32 0
  store i64 0, ptr %".7"
  %".9" = getelementptr inbounds {i64, i64, ptr, ptr, ptr}, ptr %"m.ctx", i32 0, i32 1
  store i64 2, ptr %".9"
  %".11" = getelementptr inbounds {i64, i64, ptr, ptr, ptr}, ptr %"m.ctx", i32 0, i32 2
  store ptr %"X_I_0", ptr %".11"
  %".13" = getelementptr inbounds {i64, i64, ptr, ptr, ptr}, ptr %"m.ctx", i32 0, i32 3
  store ptr %"X_I_1", ptr %".13"
  %".15" = getelementptr inbounds {i64, i64, ptr, ptr, ptr}, ptr %"m.ctx", i32 0, i32 4
  store ptr %"X_T2", ptr %".15"
  call void @"GOMP_parallel"(void (ptr)* @"kernel_0.parallel.1", ptr %"m.ctx", i32 0, i32 0)
  ret void
}

define internal void @"plaidc_main"(ptr noalias %"X_I_0", ptr noalias %"X_I_1", ptr noalias %"X_T2", ptr noalias %"plaidc_status") "prefer-vector-width"="512"
{
entry:
  br label %"start"
start:
  ; the whole program
  ; main
  call void @"kernel_0"(ptr %"X_I_0", ptr %"X_I_1", ptr %"X_T2")
  ret void
}

declare <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %".1", <16 x float> %".2", <16 x float> %".3")

define internal void @"kernel_0.parallel.1"(ptr %".1") "prefer-vector-width"="512"
{
entry:
  %"m.it.slot" = alloca i64
  %"gemm_scratch" = alloca [4608 x float], align 64
  br label %"start"
start:
  %".3" = getelementptr inbounds {i64, i64, ptr, ptr, ptr}, ptr %".1", i32 0, i32 0
  %".4" = load i64, ptr %".3"
  %".5" = getelementptr inbounds {i64, i64, ptr, ptr, ptr}, ptr %".1", i32 0, i32 1
  %".6" = load i64, ptr %".5"
  %".7" = getelementptr inbounds {i64, i64, ptr, ptr, ptr}, ptr %".1", i32 0, i32 2
  %".8" = load ptr, ptr %".7"
  %".9" = getelementptr inbounds {i64, i64, ptr, ptr, ptr}, ptr %".1", i32 0, i32 3
  %".10" = load ptr, ptr %".9"
  %".11" = getelementptr inbounds {i64, i64, ptr, ptr, ptr}, ptr %".1", i32 0, i32 4
  %".12" = load ptr, ptr %".11"
  %".13" = call i32 @"omp_get_thread_num"()
  %".14" = sext i32 %".13" to i64
  %".15" = call i32 @"omp_get_num_threads"()
  %".16" = sext i32 %".15" to i64
  %".17" = sub i64 %".6", %".4"
  %".18" = add i64 %".17", 0
  %".19" = sdiv i64 %".18", 1
  %".20" = icmp slt i64 %".19", 0
  %".21" = select  i1 %".20", i64 0, i64 %".19"
  %".22" = sub i64 %".16", 1
  %".23" = add i64 %".21", %".22"
  %".24" = sdiv i64 %".23", %".16"
  %".25" = mul i64 %".14", %".24"
  %".26" = add i64 %".25", %".24"
  %".27" = icmp slt i64 %".26", %".21"
  %".28" = select  i1 %".27", i64 %".26", i64 %".21"
  store i64 %".25", ptr %"m.it.slot"
  br label %"m.it.head"
m.it.head:
  %"m.it" = load i64, ptr %"m.it.slot"
  %".31" = icmp slt i64 %"m.it", %".28"
  br i1 %".31", label %"m.it.body", label %"m.it.exit"
m.it.body:
  %".33" = mul i64 %"m.it", 1
  %"m" = add i64 %".4", %".33"
  ; kernel_0(X_I_0,X_I_1)
  ; #0
  %".37" = mul i64 %"m", 1536
  %".38" = getelementptr inbounds float, ptr %".8", i64 %".37"
  %".39" = mul i64 %"m", 2560
  %".40" = getelementptr inbounds float, ptr %".12", i64 %".39"
  call void @"gemm"(ptr %".38", ptr %".10", ptr %".40", ptr %"gemm_scratch")
  %".42" = add i64 %"m.it", 1
  store i64 %".42", ptr %"m.it.slot"
  br label %"m.it.head"
m.it.exit:
  ret void
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
  call void @"plaidc_main"(ptr %".4", ptr %".6", ptr %".8", ptr %".10")
  ret void
}

!0 = !{ !"llvm.loop.vectorize.enable", i1 1 }
!1 = !{ !"llvm.loop.unroll.disable" }
!2 = distinct !{ !2, !0, !1 }
!3 = distinct !{ !3, !0, !1 }
!4 = distinct !{ !4, !0, !1 }
!5 = distinct !{ !5, !0, !1 }
!6 = distinct !{ !6, !0, !1 }
!7 = distinct !{ !7, !0, !1 }
!8 = distinct !{ !8, !0, !1 }
!9 = distinct !{ !9, !0, !1 }
!10 = distinct !{ !10, !0, !1 }
!11 = distinct !{ !11, !0, !1 }