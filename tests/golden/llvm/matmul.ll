; ModuleID = "plaidc"
target triple = "unknown-unknown-unknown"
target datalayout = ""

define internal void @"gemm"(ptr noalias %"A", ptr noalias %"B", ptr noalias %"C", ptr noalias %"scratch") "prefer-vector-width"="512"
{
entry:
  %"apack" = alloca [384 x float], align 64
  %"k_1.slot" = alloca i64
  %"p.slot" = alloca i64
  %"k_2.slot" = alloca i64
  %"j.slot" = alloca i64
  %"j_1.slot" = alloca i64
  %"i0.slot" = alloca i64
  %"kb.slot" = alloca i64
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
  %"k_5.slot" = alloca i64
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
  %"k_6.slot" = alloca i64
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
  store i64 0, ptr %"k_1.slot"
  br label %"k_1.head"
k_1.head:
  %"k_1" = load i64, ptr %"k_1.slot"
  %".9" = icmp slt i64 %"k_1", 48
  br i1 %".9", label %"k_1.body", label %"k_1.exit"
k_1.body:
  store i64 0, ptr %"p.slot"
  br label %"p.head"
k_1.exit:
  store i64 0, ptr %"k_2.slot"
  br label %"k_2.head"
p.head:
  %"p" = load i64, ptr %"p.slot"
  %".13" = icmp slt i64 %"p", 2
  br i1 %".13", label %"p.body", label %"p.exit"
p.body:
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
  %".37" = add i64 %"p", 1
  store i64 %".37", ptr %"p.slot"
  br label %"p.head"
p.exit:
  %".40" = add i64 %"k_1", 1
  store i64 %".40", ptr %"k_1.slot"
  br label %"k_1.head"
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
  store i64 0, ptr %"kb.slot"
  br label %"kb.head"
i0.exit:
  ret void
kb.head:
  %"kb" = load i64, ptr %"kb.slot"
  %".85" = icmp slt i64 %"kb", 3
  br i1 %".85", label %"kb.body", label %"kb.exit"
kb.body:
  %".87" = mul i64 %"i0", 48
  %".88" = mul i64 %"kb", 16
  %".89" = add i64 %".87", %".88"
  %".90" = getelementptr inbounds float, ptr %"A", i64 %".89"
  %".91" = load <16 x float>, ptr %".90", align 4
  %".92" = mul i64 %"i0", 48
  %".93" = mul i64 %"kb", 16
  %".94" = add i64 %".92", %".93"
  %".95" = add i64 %".94", 192
  %".96" = getelementptr inbounds float, ptr %"A", i64 %".95"
  %".97" = load <16 x float>, ptr %".96", align 4
  %"t" = shufflevector <16 x float> %".91", <16 x float> %".97", <16 x i32> <i32 0, i32 16, i32 1, i32 17, i32 2, i32 18, i32 3, i32 19, i32 4, i32 20, i32 5, i32 21, i32 6, i32 22, i32 7, i32 23>
  %".99" = mul i64 %"i0", 48
  %".100" = mul i64 %"kb", 16
  %".101" = add i64 %".99", %".100"
  %".102" = getelementptr inbounds float, ptr %"A", i64 %".101"
  %".103" = load <16 x float>, ptr %".102", align 4
  %".104" = mul i64 %"i0", 48
  %".105" = mul i64 %"kb", 16
  %".106" = add i64 %".104", %".105"
  %".107" = add i64 %".106", 192
  %".108" = getelementptr inbounds float, ptr %"A", i64 %".107"
  %".109" = load <16 x float>, ptr %".108", align 4
  %"t_1" = shufflevector <16 x float> %".103", <16 x float> %".109", <16 x i32> <i32 8, i32 24, i32 9, i32 25, i32 10, i32 26, i32 11, i32 27, i32 12, i32 28, i32 13, i32 29, i32 14, i32 30, i32 15, i32 31>
  %".111" = mul i64 %"i0", 48
  %".112" = mul i64 %"kb", 16
  %".113" = add i64 %".111", %".112"
  %".114" = add i64 %".113", 48
  %".115" = getelementptr inbounds float, ptr %"A", i64 %".114"
  %".116" = load <16 x float>, ptr %".115", align 4
  %".117" = mul i64 %"i0", 48
  %".118" = mul i64 %"kb", 16
  %".119" = add i64 %".117", %".118"
  %".120" = add i64 %".119", 240
  %".121" = getelementptr inbounds float, ptr %"A", i64 %".120"
  %".122" = load <16 x float>, ptr %".121", align 4
  %"t_2" = shufflevector <16 x float> %".116", <16 x float> %".122", <16 x i32> <i32 0, i32 16, i32 1, i32 17, i32 2, i32 18, i32 3, i32 19, i32 4, i32 20, i32 5, i32 21, i32 6, i32 22, i32 7, i32 23>
  %".124" = mul i64 %"i0", 48
  %".125" = mul i64 %"kb", 16
  %".126" = add i64 %".124", %".125"
  %".127" = add i64 %".126", 48
  %".128" = getelementptr inbounds float, ptr %"A", i64 %".127"
  %".129" = load <16 x float>, ptr %".128", align 4
  %".130" = mul i64 %"i0", 48
  %".131" = mul i64 %"kb", 16
  %".132" = add i64 %".130", %".131"
  %".133" = add i64 %".132", 240
  %".134" = getelementptr inbounds float, ptr %"A", i64 %".133"
  %".135" = load <16 x float>, ptr %".134", align 4
  %"t_3" = shufflevector <16 x float> %".129", <16 x float> %".135", <16 x i32> <i32 8, i32 24, i32 9, i32 25, i32 10, i32 26, i32 11, i32 27, i32 12, i32 28, i32 13, i32 29, i32 14, i32 30, i32 15, i32 31>
  %".137" = mul i64 %"i0", 48
  %".138" = mul i64 %"kb", 16
  %".139" = add i64 %".137", %".138"
  %".140" = add i64 %".139", 96
  %".141" = getelementptr inbounds float, ptr %"A", i64 %".140"
  %".142" = load <16 x float>, ptr %".141", align 4
  %".143" = mul i64 %"i0", 48
  %".144" = mul i64 %"kb", 16
  %".145" = add i64 %".143", %".144"
  %".146" = add i64 %".145", 288
  %".147" = getelementptr inbounds float, ptr %"A", i64 %".146"
  %".148" = load <16 x float>, ptr %".147", align 4
  %"t_4" = shufflevector <16 x float> %".142", <16 x float> %".148", <16 x i32> <i32 0, i32 16, i32 1, i32 17, i32 2, i32 18, i32 3, i32 19, i32 4, i32 20, i32 5, i32 21, i32 6, i32 22, i32 7, i32 23>
  %".150" = mul i64 %"i0", 48
  %".151" = mul i64 %"kb", 16
  %".152" = add i64 %".150", %".151"
  %".153" = add i64 %".152", 96
  %".154" = getelementptr inbounds float, ptr %"A", i64 %".153"
  %".155" = load <16 x float>, ptr %".154", align 4
  %".156" = mul i64 %"i0", 48
  %".157" = mul i64 %"kb", 16
  %".158" = add i64 %".156", %".157"
  %".159" = add i64 %".158", 288
  %".160" = getelementptr inbounds float, ptr %"A", i64 %".159"
  %".161" = load <16 x float>, ptr %".160", align 4
  %"t_5" = shufflevector <16 x float> %".155", <16 x float> %".161", <16 x i32> <i32 8, i32 24, i32 9, i32 25, i32 10, i32 26, i32 11, i32 27, i32 12, i32 28, i32 13, i32 29, i32 14, i32 30, i32 15, i32 31>
  %".163" = mul i64 %"i0", 48
  %".164" = mul i64 %"kb", 16
  %".165" = add i64 %".163", %".164"
  %".166" = add i64 %".165", 144
  %".167" = getelementptr inbounds float, ptr %"A", i64 %".166"
  %".168" = load <16 x float>, ptr %".167", align 4
  %".169" = mul i64 %"i0", 48
  %".170" = mul i64 %"kb", 16
  %".171" = add i64 %".169", %".170"
  %".172" = add i64 %".171", 336
  %".173" = getelementptr inbounds float, ptr %"A", i64 %".172"
  %".174" = load <16 x float>, ptr %".173", align 4
  %"t_6" = shufflevector <16 x float> %".168", <16 x float> %".174", <16 x i32> <i32 0, i32 16, i32 1, i32 17, i32 2, i32 18, i32 3, i32 19, i32 4, i32 20, i32 5, i32 21, i32 6, i32 22, i32 7, i32 23>
  %".176" = mul i64 %"i0", 48
  %".177" = mul i64 %"kb", 16
  %".178" = add i64 %".176", %".177"
  %".179" = add i64 %".178", 144
  %".180" = getelementptr inbounds float, ptr %"A", i64 %".179"
  %".181" = load <16 x float>, ptr %".180", align 4
  %".182" = mul i64 %"i0", 48
  %".183" = mul i64 %"kb", 16
  %".184" = add i64 %".182", %".183"
  %".185" = add i64 %".184", 336
  %".186" = getelementptr inbounds float, ptr %"A", i64 %".185"
  %".187" = load <16 x float>, ptr %".186", align 4
  %"t_7" = shufflevector <16 x float> %".181", <16 x float> %".187", <16 x i32> <i32 8, i32 24, i32 9, i32 25, i32 10, i32 26, i32 11, i32 27, i32 12, i32 28, i32 13, i32 29, i32 14, i32 30, i32 15, i32 31>
  %"t_8" = shufflevector <16 x float> %"t", <16 x float> %"t_4", <16 x i32> <i32 0, i32 16, i32 1, i32 17, i32 2, i32 18, i32 3, i32 19, i32 4, i32 20, i32 5, i32 21, i32 6, i32 22, i32 7, i32 23>
  %"t_9" = shufflevector <16 x float> %"t", <16 x float> %"t_4", <16 x i32> <i32 8, i32 24, i32 9, i32 25, i32 10, i32 26, i32 11, i32 27, i32 12, i32 28, i32 13, i32 29, i32 14, i32 30, i32 15, i32 31>
  %"t_10" = shufflevector <16 x float> %"t_1", <16 x float> %"t_5", <16 x i32> <i32 0, i32 16, i32 1, i32 17, i32 2, i32 18, i32 3, i32 19, i32 4, i32 20, i32 5, i32 21, i32 6, i32 22, i32 7, i32 23>
  %"t_11" = shufflevector <16 x float> %"t_1", <16 x float> %"t_5", <16 x i32> <i32 8, i32 24, i32 9, i32 25, i32 10, i32 26, i32 11, i32 27, i32 12, i32 28, i32 13, i32 29, i32 14, i32 30, i32 15, i32 31>
  %"t_12" = shufflevector <16 x float> %"t_2", <16 x float> %"t_6", <16 x i32> <i32 0, i32 16, i32 1, i32 17, i32 2, i32 18, i32 3, i32 19, i32 4, i32 20, i32 5, i32 21, i32 6, i32 22, i32 7, i32 23>
  %"t_13" = shufflevector <16 x float> %"t_2", <16 x float> %"t_6", <16 x i32> <i32 8, i32 24, i32 9, i32 25, i32 10, i32 26, i32 11, i32 27, i32 12, i32 28, i32 13, i32 29, i32 14, i32 30, i32 15, i32 31>
  %"t_14" = shufflevector <16 x float> %"t_3", <16 x float> %"t_7", <16 x i32> <i32 0, i32 16, i32 1, i32 17, i32 2, i32 18, i32 3, i32 19, i32 4, i32 20, i32 5, i32 21, i32 6, i32 22, i32 7, i32 23>
  %"t_15" = shufflevector <16 x float> %"t_3", <16 x float> %"t_7", <16 x i32> <i32 8, i32 24, i32 9, i32 25, i32 10, i32 26, i32 11, i32 27, i32 12, i32 28, i32 13, i32 29, i32 14, i32 30, i32 15, i32 31>
  %"t_16" = shufflevector <16 x float> %"t_8", <16 x float> %"t_12", <16 x i32> <i32 0, i32 16, i32 1, i32 17, i32 2, i32 18, i32 3, i32 19, i32 4, i32 20, i32 5, i32 21, i32 6, i32 22, i32 7, i32 23>
  %"t_17" = shufflevector <16 x float> %"t_8", <16 x float> %"t_12", <16 x i32> <i32 8, i32 24, i32 9, i32 25, i32 10, i32 26, i32 11, i32 27, i32 12, i32 28, i32 13, i32 29, i32 14, i32 30, i32 15, i32 31>
  %"t_18" = shufflevector <16 x float> %"t_9", <16 x float> %"t_13", <16 x i32> <i32 0, i32 16, i32 1, i32 17, i32 2, i32 18, i32 3, i32 19, i32 4, i32 20, i32 5, i32 21, i32 6, i32 22, i32 7, i32 23>
  %"t_19" = shufflevector <16 x float> %"t_9", <16 x float> %"t_13", <16 x i32> <i32 8, i32 24, i32 9, i32 25, i32 10, i32 26, i32 11, i32 27, i32 12, i32 28, i32 13, i32 29, i32 14, i32 30, i32 15, i32 31>
  %"t_20" = shufflevector <16 x float> %"t_10", <16 x float> %"t_14", <16 x i32> <i32 0, i32 16, i32 1, i32 17, i32 2, i32 18, i32 3, i32 19, i32 4, i32 20, i32 5, i32 21, i32 6, i32 22, i32 7, i32 23>
  %"t_21" = shufflevector <16 x float> %"t_10", <16 x float> %"t_14", <16 x i32> <i32 8, i32 24, i32 9, i32 25, i32 10, i32 26, i32 11, i32 27, i32 12, i32 28, i32 13, i32 29, i32 14, i32 30, i32 15, i32 31>
  %"t_22" = shufflevector <16 x float> %"t_11", <16 x float> %"t_15", <16 x i32> <i32 0, i32 16, i32 1, i32 17, i32 2, i32 18, i32 3, i32 19, i32 4, i32 20, i32 5, i32 21, i32 6, i32 22, i32 7, i32 23>
  %"t_23" = shufflevector <16 x float> %"t_11", <16 x float> %"t_15", <16 x i32> <i32 8, i32 24, i32 9, i32 25, i32 10, i32 26, i32 11, i32 27, i32 12, i32 28, i32 13, i32 29, i32 14, i32 30, i32 15, i32 31>
  %".205" = mul i64 %"kb", 128
  %".206" = getelementptr inbounds float, ptr %"apack", i64 %".205"
  store <16 x float> %"t_16", ptr %".206", align 4
  %".208" = mul i64 %"kb", 128
  %".209" = add i64 %".208", 16
  %".210" = getelementptr inbounds float, ptr %"apack", i64 %".209"
  store <16 x float> %"t_17", ptr %".210", align 4
  %".212" = mul i64 %"kb", 128
  %".213" = add i64 %".212", 32
  %".214" = getelementptr inbounds float, ptr %"apack", i64 %".213"
  store <16 x float> %"t_18", ptr %".214", align 4
  %".216" = mul i64 %"kb", 128
  %".217" = add i64 %".216", 48
  %".218" = getelementptr inbounds float, ptr %"apack", i64 %".217"
  store <16 x float> %"t_19", ptr %".218", align 4
  %".220" = mul i64 %"kb", 128
  %".221" = add i64 %".220", 64
  %".222" = getelementptr inbounds float, ptr %"apack", i64 %".221"
  store <16 x float> %"t_20", ptr %".222", align 4
  %".224" = mul i64 %"kb", 128
  %".225" = add i64 %".224", 80
  %".226" = getelementptr inbounds float, ptr %"apack", i64 %".225"
  store <16 x float> %"t_21", ptr %".226", align 4
  %".228" = mul i64 %"kb", 128
  %".229" = add i64 %".228", 96
  %".230" = getelementptr inbounds float, ptr %"apack", i64 %".229"
  store <16 x float> %"t_22", ptr %".230", align 4
  %".232" = mul i64 %"kb", 128
  %".233" = add i64 %".232", 112
  %".234" = getelementptr inbounds float, ptr %"apack", i64 %".233"
  store <16 x float> %"t_23", ptr %".234", align 4
  %".236" = add i64 %"kb", 1
  store i64 %".236", ptr %"kb.slot"
  br label %"kb.head"
kb.exit:
  store i64 0, ptr %"p_1.slot"
  br label %"p_1.head"
p_1.head:
  %"p_1" = load i64, ptr %"p_1.slot"
  %".241" = icmp slt i64 %"p_1", 2
  br i1 %".241", label %"p_1.body", label %"p_1.exit"
p_1.body:
  %".243" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".244" = shufflevector <16 x float> %".243", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".244", ptr %"c0_0"
  %".246" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".247" = shufflevector <16 x float> %".246", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".247", ptr %"c0_1"
  %".249" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".250" = shufflevector <16 x float> %".249", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".250", ptr %"c1_0"
  %".252" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".253" = shufflevector <16 x float> %".252", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".253", ptr %"c1_1"
  %".255" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".256" = shufflevector <16 x float> %".255", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".256", ptr %"c2_0"
  %".258" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".259" = shufflevector <16 x float> %".258", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".259", ptr %"c2_1"
  %".261" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".262" = shufflevector <16 x float> %".261", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".262", ptr %"c3_0"
  %".264" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".265" = shufflevector <16 x float> %".264", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".265", ptr %"c3_1"
  %".267" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".268" = shufflevector <16 x float> %".267", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".268", ptr %"c4_0"
  %".270" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".271" = shufflevector <16 x float> %".270", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".271", ptr %"c4_1"
  %".273" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".274" = shufflevector <16 x float> %".273", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".274", ptr %"c5_0"
  %".276" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".277" = shufflevector <16 x float> %".276", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".277", ptr %"c5_1"
  %".279" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".280" = shufflevector <16 x float> %".279", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".280", ptr %"c6_0"
  %".282" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".283" = shufflevector <16 x float> %".282", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".283", ptr %"c6_1"
  %".285" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".286" = shufflevector <16 x float> %".285", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".286", ptr %"c7_0"
  %".288" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".289" = shufflevector <16 x float> %".288", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".289", ptr %"c7_1"
  store i64 0, ptr %"k_5.slot"
  br label %"k_5.head"
p_1.exit:
  %".518" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".519" = shufflevector <16 x float> %".518", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".519", ptr %"c0_0_1"
  %".521" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".522" = shufflevector <16 x float> %".521", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".522", ptr %"c0_1_1"
  %".524" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".525" = shufflevector <16 x float> %".524", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".525", ptr %"c1_0_1"
  %".527" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".528" = shufflevector <16 x float> %".527", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".528", ptr %"c1_1_1"
  %".530" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".531" = shufflevector <16 x float> %".530", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".531", ptr %"c2_0_1"
  %".533" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".534" = shufflevector <16 x float> %".533", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".534", ptr %"c2_1_1"
  %".536" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".537" = shufflevector <16 x float> %".536", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".537", ptr %"c3_0_1"
  %".539" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".540" = shufflevector <16 x float> %".539", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".540", ptr %"c3_1_1"
  %".542" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".543" = shufflevector <16 x float> %".542", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".543", ptr %"c4_0_1"
  %".545" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".546" = shufflevector <16 x float> %".545", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".546", ptr %"c4_1_1"
  %".548" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".549" = shufflevector <16 x float> %".548", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".549", ptr %"c5_0_1"
  %".551" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".552" = shufflevector <16 x float> %".551", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".552", ptr %"c5_1_1"
  %".554" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".555" = shufflevector <16 x float> %".554", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".555", ptr %"c6_0_1"
  %".557" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".558" = shufflevector <16 x float> %".557", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".558", ptr %"c6_1_1"
  %".560" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".561" = shufflevector <16 x float> %".560", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".561", ptr %"c7_0_1"
  %".563" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".564" = shufflevector <16 x float> %".563", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".564", ptr %"c7_1_1"
  store i64 0, ptr %"k_6.slot"
  br label %"k_6.head"
k_5.head:
  %"k_5" = load i64, ptr %"k_5.slot"
  %".293" = icmp slt i64 %"k_5", 48
  br i1 %".293", label %"k_5.body", label %"k_5.exit"
k_5.body:
  %".295" = mul i64 %"k_5", 32
  %".296" = mul i64 %"p_1", 1536
  %".297" = add i64 %".295", %".296"
  %".298" = getelementptr inbounds float, ptr %"scratch", i64 %".297"
  %"b0" = load <16 x float>, ptr %".298", align 4
  %".300" = mul i64 %"k_5", 32
  %".301" = mul i64 %"p_1", 1536
  %".302" = add i64 %".300", %".301"
  %".303" = add i64 %".302", 16
  %".304" = getelementptr inbounds float, ptr %"scratch", i64 %".303"
  %"b1" = load <16 x float>, ptr %".304", align 4
  %".306" = mul i64 %"k_5", 8
  %".307" = getelementptr inbounds float, ptr %"apack", i64 %".306"
  %".308" = load float, ptr %".307", align 4
  %".309" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".308", i32 0
  %"a0" = shufflevector <16 x float> %".309", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".311" = load <16 x float>, ptr %"c0_0"
  %".312" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a0", <16 x float> %"b0", <16 x float> %".311")
  store <16 x float> %".312", ptr %"c0_0"
  %".314" = load <16 x float>, ptr %"c0_1"
  %".315" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a0", <16 x float> %"b1", <16 x float> %".314")
  store <16 x float> %".315", ptr %"c0_1"
  %".317" = mul i64 %"k_5", 8
  %".318" = add i64 %".317", 1
  %".319" = getelementptr inbounds float, ptr %"apack", i64 %".318"
  %".320" = load float, ptr %".319", align 4
  %".321" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".320", i32 0
  %"a1" = shufflevector <16 x float> %".321", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".323" = load <16 x float>, ptr %"c1_0"
  %".324" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a1", <16 x float> %"b0", <16 x float> %".323")
  store <16 x float> %".324", ptr %"c1_0"
  %".326" = load <16 x float>, ptr %"c1_1"
  %".327" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a1", <16 x float> %"b1", <16 x float> %".326")
  store <16 x float> %".327", ptr %"c1_1"
  %".329" = mul i64 %"k_5", 8
  %".330" = add i64 %".329", 2
  %".331" = getelementptr inbounds float, ptr %"apack", i64 %".330"
  %".332" = load float, ptr %".331", align 4
  %".333" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".332", i32 0
  %"a2" = shufflevector <16 x float> %".333", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".335" = load <16 x float>, ptr %"c2_0"
  %".336" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a2", <16 x float> %"b0", <16 x float> %".335")
  store <16 x float> %".336", ptr %"c2_0"
  %".338" = load <16 x float>, ptr %"c2_1"
  %".339" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a2", <16 x float> %"b1", <16 x float> %".338")
  store <16 x float> %".339", ptr %"c2_1"
  %".341" = mul i64 %"k_5", 8
  %".342" = add i64 %".341", 3
  %".343" = getelementptr inbounds float, ptr %"apack", i64 %".342"
  %".344" = load float, ptr %".343", align 4
  %".345" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".344", i32 0
  %"a3" = shufflevector <16 x float> %".345", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".347" = load <16 x float>, ptr %"c3_0"
  %".348" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a3", <16 x float> %"b0", <16 x float> %".347")
  store <16 x float> %".348", ptr %"c3_0"
  %".350" = load <16 x float>, ptr %"c3_1"
  %".351" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a3", <16 x float> %"b1", <16 x float> %".350")
  store <16 x float> %".351", ptr %"c3_1"
  %".353" = mul i64 %"k_5", 8
  %".354" = add i64 %".353", 4
  %".355" = getelementptr inbounds float, ptr %"apack", i64 %".354"
  %".356" = load float, ptr %".355", align 4
  %".357" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".356", i32 0
  %"a4" = shufflevector <16 x float> %".357", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".359" = load <16 x float>, ptr %"c4_0"
  %".360" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a4", <16 x float> %"b0", <16 x float> %".359")
  store <16 x float> %".360", ptr %"c4_0"
  %".362" = load <16 x float>, ptr %"c4_1"
  %".363" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a4", <16 x float> %"b1", <16 x float> %".362")
  store <16 x float> %".363", ptr %"c4_1"
  %".365" = mul i64 %"k_5", 8
  %".366" = add i64 %".365", 5
  %".367" = getelementptr inbounds float, ptr %"apack", i64 %".366"
  %".368" = load float, ptr %".367", align 4
  %".369" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".368", i32 0
  %"a5" = shufflevector <16 x float> %".369", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".371" = load <16 x float>, ptr %"c5_0"
  %".372" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a5", <16 x float> %"b0", <16 x float> %".371")
  store <16 x float> %".372", ptr %"c5_0"
  %".374" = load <16 x float>, ptr %"c5_1"
  %".375" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a5", <16 x float> %"b1", <16 x float> %".374")
  store <16 x float> %".375", ptr %"c5_1"
  %".377" = mul i64 %"k_5", 8
  %".378" = add i64 %".377", 6
  %".379" = getelementptr inbounds float, ptr %"apack", i64 %".378"
  %".380" = load float, ptr %".379", align 4
  %".381" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".380", i32 0
  %"a6" = shufflevector <16 x float> %".381", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".383" = load <16 x float>, ptr %"c6_0"
  %".384" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a6", <16 x float> %"b0", <16 x float> %".383")
  store <16 x float> %".384", ptr %"c6_0"
  %".386" = load <16 x float>, ptr %"c6_1"
  %".387" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a6", <16 x float> %"b1", <16 x float> %".386")
  store <16 x float> %".387", ptr %"c6_1"
  %".389" = mul i64 %"k_5", 8
  %".390" = add i64 %".389", 7
  %".391" = getelementptr inbounds float, ptr %"apack", i64 %".390"
  %".392" = load float, ptr %".391", align 4
  %".393" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".392", i32 0
  %"a7" = shufflevector <16 x float> %".393", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".395" = load <16 x float>, ptr %"c7_0"
  %".396" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a7", <16 x float> %"b0", <16 x float> %".395")
  store <16 x float> %".396", ptr %"c7_0"
  %".398" = load <16 x float>, ptr %"c7_1"
  %".399" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a7", <16 x float> %"b1", <16 x float> %".398")
  store <16 x float> %".399", ptr %"c7_1"
  %".401" = add i64 %"k_5", 1
  store i64 %".401", ptr %"k_5.slot"
  br label %"k_5.head"
k_5.exit:
  %".404" = load <16 x float>, ptr %"c0_0"
  %".405" = mul i64 %"i0", 80
  %".406" = mul i64 %"p_1", 32
  %".407" = add i64 %".405", %".406"
  %".408" = getelementptr inbounds float, ptr %"C", i64 %".407"
  store <16 x float> %".404", ptr %".408", align 4
  %".410" = load <16 x float>, ptr %"c0_1"
  %".411" = mul i64 %"i0", 80
  %".412" = mul i64 %"p_1", 32
  %".413" = add i64 %".411", %".412"
  %".414" = add i64 %".413", 16
  %".415" = getelementptr inbounds float, ptr %"C", i64 %".414"
  store <16 x float> %".410", ptr %".415", align 4
  %".417" = load <16 x float>, ptr %"c1_0"
  %".418" = mul i64 %"i0", 80
  %".419" = mul i64 %"p_1", 32
  %".420" = add i64 %".418", %".419"
  %".421" = add i64 %".420", 80
  %".422" = getelementptr inbounds float, ptr %"C", i64 %".421"
  store <16 x float> %".417", ptr %".422", align 4
  %".424" = load <16 x float>, ptr %"c1_1"
  %".425" = mul i64 %"i0", 80
  %".426" = mul i64 %"p_1", 32
  %".427" = add i64 %".425", %".426"
  %".428" = add i64 %".427", 96
  %".429" = getelementptr inbounds float, ptr %"C", i64 %".428"
  store <16 x float> %".424", ptr %".429", align 4
  %".431" = load <16 x float>, ptr %"c2_0"
  %".432" = mul i64 %"i0", 80
  %".433" = mul i64 %"p_1", 32
  %".434" = add i64 %".432", %".433"
  %".435" = add i64 %".434", 160
  %".436" = getelementptr inbounds float, ptr %"C", i64 %".435"
  store <16 x float> %".431", ptr %".436", align 4
  %".438" = load <16 x float>, ptr %"c2_1"
  %".439" = mul i64 %"i0", 80
  %".440" = mul i64 %"p_1", 32
  %".441" = add i64 %".439", %".440"
  %".442" = add i64 %".441", 176
  %".443" = getelementptr inbounds float, ptr %"C", i64 %".442"
  store <16 x float> %".438", ptr %".443", align 4
  %".445" = load <16 x float>, ptr %"c3_0"
  %".446" = mul i64 %"i0", 80
  %".447" = mul i64 %"p_1", 32
  %".448" = add i64 %".446", %".447"
  %".449" = add i64 %".448", 240
  %".450" = getelementptr inbounds float, ptr %"C", i64 %".449"
  store <16 x float> %".445", ptr %".450", align 4
  %".452" = load <16 x float>, ptr %"c3_1"
  %".453" = mul i64 %"i0", 80
  %".454" = mul i64 %"p_1", 32
  %".455" = add i64 %".453", %".454"
  %".456" = add i64 %".455", 256
  %".457" = getelementptr inbounds float, ptr %"C", i64 %".456"
  store <16 x float> %".452", ptr %".457", align 4
  %".459" = load <16 x float>, ptr %"c4_0"
  %".460" = mul i64 %"i0", 80
  %".461" = mul i64 %"p_1", 32
  %".462" = add i64 %".460", %".461"
  %".463" = add i64 %".462", 320
  %".464" = getelementptr inbounds float, ptr %"C", i64 %".463"
  store <16 x float> %".459", ptr %".464", align 4
  %".466" = load <16 x float>, ptr %"c4_1"
  %".467" = mul i64 %"i0", 80
  %".468" = mul i64 %"p_1", 32
  %".469" = add i64 %".467", %".468"
  %".470" = add i64 %".469", 336
  %".471" = getelementptr inbounds float, ptr %"C", i64 %".470"
  store <16 x float> %".466", ptr %".471", align 4
  %".473" = load <16 x float>, ptr %"c5_0"
  %".474" = mul i64 %"i0", 80
  %".475" = mul i64 %"p_1", 32
  %".476" = add i64 %".474", %".475"
  %".477" = add i64 %".476", 400
  %".478" = getelementptr inbounds float, ptr %"C", i64 %".477"
  store <16 x float> %".473", ptr %".478", align 4
  %".480" = load <16 x float>, ptr %"c5_1"
  %".481" = mul i64 %"i0", 80
  %".482" = mul i64 %"p_1", 32
  %".483" = add i64 %".481", %".482"
  %".484" = add i64 %".483", 416
  %".485" = getelementptr inbounds float, ptr %"C", i64 %".484"
  store <16 x float> %".480", ptr %".485", align 4
  %".487" = load <16 x float>, ptr %"c6_0"
  %".488" = mul i64 %"i0", 80
  %".489" = mul i64 %"p_1", 32
  %".490" = add i64 %".488", %".489"
  %".491" = add i64 %".490", 480
  %".492" = getelementptr inbounds float, ptr %"C", i64 %".491"
  store <16 x float> %".487", ptr %".492", align 4
  %".494" = load <16 x float>, ptr %"c6_1"
  %".495" = mul i64 %"i0", 80
  %".496" = mul i64 %"p_1", 32
  %".497" = add i64 %".495", %".496"
  %".498" = add i64 %".497", 496
  %".499" = getelementptr inbounds float, ptr %"C", i64 %".498"
  store <16 x float> %".494", ptr %".499", align 4
  %".501" = load <16 x float>, ptr %"c7_0"
  %".502" = mul i64 %"i0", 80
  %".503" = mul i64 %"p_1", 32
  %".504" = add i64 %".502", %".503"
  %".505" = add i64 %".504", 560
  %".506" = getelementptr inbounds float, ptr %"C", i64 %".505"
  store <16 x float> %".501", ptr %".506", align 4
  %".508" = load <16 x float>, ptr %"c7_1"
  %".509" = mul i64 %"i0", 80
  %".510" = mul i64 %"p_1", 32
  %".511" = add i64 %".509", %".510"
  %".512" = add i64 %".511", 576
  %".513" = getelementptr inbounds float, ptr %"C", i64 %".512"
  store <16 x float> %".508", ptr %".513", align 4
  %".515" = add i64 %"p_1", 1
  store i64 %".515", ptr %"p_1.slot"
  br label %"p_1.head"
k_6.head:
  %"k_6" = load i64, ptr %"k_6.slot"
  %".568" = icmp slt i64 %"k_6", 48
  br i1 %".568", label %"k_6.body", label %"k_6.exit"
k_6.body:
  %".570" = mul i64 %"k_6", 32
  %".571" = add i64 %".570", 3072
  %".572" = getelementptr inbounds float, ptr %"scratch", i64 %".571"
  %"b0_1" = load <16 x float>, ptr %".572", align 4
  %".574" = mul i64 %"k_6", 32
  %".575" = add i64 %".574", 3088
  %".576" = getelementptr inbounds float, ptr %"scratch", i64 %".575"
  %"b1_1" = load <16 x float>, ptr %".576", align 4
  %".578" = mul i64 %"k_6", 8
  %".579" = getelementptr inbounds float, ptr %"apack", i64 %".578"
  %".580" = load float, ptr %".579", align 4
  %".581" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".580", i32 0
  %"a0_1" = shufflevector <16 x float> %".581", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".583" = load <16 x float>, ptr %"c0_0_1"
  %".584" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a0_1", <16 x float> %"b0_1", <16 x float> %".583")
  store <16 x float> %".584", ptr %"c0_0_1"
  %".586" = load <16 x float>, ptr %"c0_1_1"
  %".587" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a0_1", <16 x float> %"b1_1", <16 x float> %".586")
  store <16 x float> %".587", ptr %"c0_1_1"
  %".589" = mul i64 %"k_6", 8
  %".590" = add i64 %".589", 1
  %".591" = getelementptr inbounds float, ptr %"apack", i64 %".590"
  %".592" = load float, ptr %".591", align 4
  %".593" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".592", i32 0
  %"a1_1" = shufflevector <16 x float> %".593", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".595" = load <16 x float>, ptr %"c1_0_1"
  %".596" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a1_1", <16 x float> %"b0_1", <16 x float> %".595")
  store <16 x float> %".596", ptr %"c1_0_1"
  %".598" = load <16 x float>, ptr %"c1_1_1"
  %".599" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a1_1", <16 x float> %"b1_1", <16 x float> %".598")
  store <16 x float> %".599", ptr %"c1_1_1"
  %".601" = mul i64 %"k_6", 8
  %".602" = add i64 %".601", 2
  %".603" = getelementptr inbounds float, ptr %"apack", i64 %".602"
  %".604" = load float, ptr %".603", align 4
  %".605" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".604", i32 0
  %"a2_1" = shufflevector <16 x float> %".605", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".607" = load <16 x float>, ptr %"c2_0_1"
  %".608" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a2_1", <16 x float> %"b0_1", <16 x float> %".607")
  store <16 x float> %".608", ptr %"c2_0_1"
  %".610" = load <16 x float>, ptr %"c2_1_1"
  %".611" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a2_1", <16 x float> %"b1_1", <16 x float> %".610")
  store <16 x float> %".611", ptr %"c2_1_1"
  %".613" = mul i64 %"k_6", 8
  %".614" = add i64 %".613", 3
  %".615" = getelementptr inbounds float, ptr %"apack", i64 %".614"
  %".616" = load float, ptr %".615", align 4
  %".617" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".616", i32 0
  %"a3_1" = shufflevector <16 x float> %".617", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".619" = load <16 x float>, ptr %"c3_0_1"
  %".620" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a3_1", <16 x float> %"b0_1", <16 x float> %".619")
  store <16 x float> %".620", ptr %"c3_0_1"
  %".622" = load <16 x float>, ptr %"c3_1_1"
  %".623" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a3_1", <16 x float> %"b1_1", <16 x float> %".622")
  store <16 x float> %".623", ptr %"c3_1_1"
  %".625" = mul i64 %"k_6", 8
  %".626" = add i64 %".625", 4
  %".627" = getelementptr inbounds float, ptr %"apack", i64 %".626"
  %".628" = load float, ptr %".627", align 4
  %".629" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".628", i32 0
  %"a4_1" = shufflevector <16 x float> %".629", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".631" = load <16 x float>, ptr %"c4_0_1"
  %".632" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a4_1", <16 x float> %"b0_1", <16 x float> %".631")
  store <16 x float> %".632", ptr %"c4_0_1"
  %".634" = load <16 x float>, ptr %"c4_1_1"
  %".635" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a4_1", <16 x float> %"b1_1", <16 x float> %".634")
  store <16 x float> %".635", ptr %"c4_1_1"
  %".637" = mul i64 %"k_6", 8
  %".638" = add i64 %".637", 5
  %".639" = getelementptr inbounds float, ptr %"apack", i64 %".638"
  %".640" = load float, ptr %".639", align 4
  %".641" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".640", i32 0
  %"a5_1" = shufflevector <16 x float> %".641", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".643" = load <16 x float>, ptr %"c5_0_1"
  %".644" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a5_1", <16 x float> %"b0_1", <16 x float> %".643")
  store <16 x float> %".644", ptr %"c5_0_1"
  %".646" = load <16 x float>, ptr %"c5_1_1"
  %".647" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a5_1", <16 x float> %"b1_1", <16 x float> %".646")
  store <16 x float> %".647", ptr %"c5_1_1"
  %".649" = mul i64 %"k_6", 8
  %".650" = add i64 %".649", 6
  %".651" = getelementptr inbounds float, ptr %"apack", i64 %".650"
  %".652" = load float, ptr %".651", align 4
  %".653" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".652", i32 0
  %"a6_1" = shufflevector <16 x float> %".653", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".655" = load <16 x float>, ptr %"c6_0_1"
  %".656" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a6_1", <16 x float> %"b0_1", <16 x float> %".655")
  store <16 x float> %".656", ptr %"c6_0_1"
  %".658" = load <16 x float>, ptr %"c6_1_1"
  %".659" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a6_1", <16 x float> %"b1_1", <16 x float> %".658")
  store <16 x float> %".659", ptr %"c6_1_1"
  %".661" = mul i64 %"k_6", 8
  %".662" = add i64 %".661", 7
  %".663" = getelementptr inbounds float, ptr %"apack", i64 %".662"
  %".664" = load float, ptr %".663", align 4
  %".665" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".664", i32 0
  %"a7_1" = shufflevector <16 x float> %".665", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".667" = load <16 x float>, ptr %"c7_0_1"
  %".668" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a7_1", <16 x float> %"b0_1", <16 x float> %".667")
  store <16 x float> %".668", ptr %"c7_0_1"
  %".670" = load <16 x float>, ptr %"c7_1_1"
  %".671" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a7_1", <16 x float> %"b1_1", <16 x float> %".670")
  store <16 x float> %".671", ptr %"c7_1_1"
  %".673" = add i64 %"k_6", 1
  store i64 %".673", ptr %"k_6.slot"
  br label %"k_6.head"
k_6.exit:
  %".676" = load <16 x float>, ptr %"c0_0_1"
  %".677" = getelementptr inbounds float, ptr %"ctile", i64 0
  store <16 x float> %".676", ptr %".677", align 4
  %".679" = load <16 x float>, ptr %"c0_1_1"
  %".680" = getelementptr inbounds float, ptr %"ctile", i64 16
  store <16 x float> %".679", ptr %".680", align 4
  %".682" = load <16 x float>, ptr %"c1_0_1"
  %".683" = getelementptr inbounds float, ptr %"ctile", i64 32
  store <16 x float> %".682", ptr %".683", align 4
  %".685" = load <16 x float>, ptr %"c1_1_1"
  %".686" = getelementptr inbounds float, ptr %"ctile", i64 48
  store <16 x float> %".685", ptr %".686", align 4
  %".688" = load <16 x float>, ptr %"c2_0_1"
  %".689" = getelementptr inbounds float, ptr %"ctile", i64 64
  store <16 x float> %".688", ptr %".689", align 4
  %".691" = load <16 x float>, ptr %"c2_1_1"
  %".692" = getelementptr inbounds float, ptr %"ctile", i64 80
  store <16 x float> %".691", ptr %".692", align 4
  %".694" = load <16 x float>, ptr %"c3_0_1"
  %".695" = getelementptr inbounds float, ptr %"ctile", i64 96
  store <16 x float> %".694", ptr %".695", align 4
  %".697" = load <16 x float>, ptr %"c3_1_1"
  %".698" = getelementptr inbounds float, ptr %"ctile", i64 112
  store <16 x float> %".697", ptr %".698", align 4
  %".700" = load <16 x float>, ptr %"c4_0_1"
  %".701" = getelementptr inbounds float, ptr %"ctile", i64 128
  store <16 x float> %".700", ptr %".701", align 4
  %".703" = load <16 x float>, ptr %"c4_1_1"
  %".704" = getelementptr inbounds float, ptr %"ctile", i64 144
  store <16 x float> %".703", ptr %".704", align 4
  %".706" = load <16 x float>, ptr %"c5_0_1"
  %".707" = getelementptr inbounds float, ptr %"ctile", i64 160
  store <16 x float> %".706", ptr %".707", align 4
  %".709" = load <16 x float>, ptr %"c5_1_1"
  %".710" = getelementptr inbounds float, ptr %"ctile", i64 176
  store <16 x float> %".709", ptr %".710", align 4
  %".712" = load <16 x float>, ptr %"c6_0_1"
  %".713" = getelementptr inbounds float, ptr %"ctile", i64 192
  store <16 x float> %".712", ptr %".713", align 4
  %".715" = load <16 x float>, ptr %"c6_1_1"
  %".716" = getelementptr inbounds float, ptr %"ctile", i64 208
  store <16 x float> %".715", ptr %".716", align 4
  %".718" = load <16 x float>, ptr %"c7_0_1"
  %".719" = getelementptr inbounds float, ptr %"ctile", i64 224
  store <16 x float> %".718", ptr %".719", align 4
  %".721" = load <16 x float>, ptr %"c7_1_1"
  %".722" = getelementptr inbounds float, ptr %"ctile", i64 240
  store <16 x float> %".721", ptr %".722", align 4
  store i64 0, ptr %"j_2.slot"
  br label %"j_2.head"
j_2.head:
  %"j_2" = load i64, ptr %"j_2.slot"
  %".726" = icmp slt i64 %"j_2", 16
  br i1 %".726", label %"j_2.body", label %"j_2.exit"
j_2.body:
  %".728" = getelementptr inbounds float, ptr %"ctile", i64 %"j_2"
  %".729" = load float, ptr %".728", align 4
  %".730" = mul i64 %"i0", 80
  %".731" = add i64 %".730", %"j_2"
  %".732" = add i64 %".731", 64
  %".733" = getelementptr inbounds float, ptr %"C", i64 %".732"
  store float %".729", ptr %".733", align 4
  %".735" = add i64 %"j_2", 1
  store i64 %".735", ptr %"j_2.slot"
  br label %"j_2.head", !llvm.loop !4
j_2.exit:
  store i64 0, ptr %"j_3.slot"
  br label %"j_3.head"
j_3.head:
  %"j_3" = load i64, ptr %"j_3.slot"
  %".740" = icmp slt i64 %"j_3", 16
  br i1 %".740", label %"j_3.body", label %"j_3.exit"
j_3.body:
  %".742" = add i64 %"j_3", 32
  %".743" = getelementptr inbounds float, ptr %"ctile", i64 %".742"
  %".744" = load float, ptr %".743", align 4
  %".745" = mul i64 %"i0", 80
  %".746" = add i64 %".745", %"j_3"
  %".747" = add i64 %".746", 144
  %".748" = getelementptr inbounds float, ptr %"C", i64 %".747"
  store float %".744", ptr %".748", align 4
  %".750" = add i64 %"j_3", 1
  store i64 %".750", ptr %"j_3.slot"
  br label %"j_3.head", !llvm.loop !5
j_3.exit:
  store i64 0, ptr %"j_4.slot"
  br label %"j_4.head"
j_4.head:
  %"j_4" = load i64, ptr %"j_4.slot"
  %".755" = icmp slt i64 %"j_4", 16
  br i1 %".755", label %"j_4.body", label %"j_4.exit"
j_4.body:
  %".757" = add i64 %"j_4", 64
  %".758" = getelementptr inbounds float, ptr %"ctile", i64 %".757"
  %".759" = load float, ptr %".758", align 4
  %".760" = mul i64 %"i0", 80
  %".761" = add i64 %".760", %"j_4"
  %".762" = add i64 %".761", 224
  %".763" = getelementptr inbounds float, ptr %"C", i64 %".762"
  store float %".759", ptr %".763", align 4
  %".765" = add i64 %"j_4", 1
  store i64 %".765", ptr %"j_4.slot"
  br label %"j_4.head", !llvm.loop !6
j_4.exit:
  store i64 0, ptr %"j_5.slot"
  br label %"j_5.head"
j_5.head:
  %"j_5" = load i64, ptr %"j_5.slot"
  %".770" = icmp slt i64 %"j_5", 16
  br i1 %".770", label %"j_5.body", label %"j_5.exit"
j_5.body:
  %".772" = add i64 %"j_5", 96
  %".773" = getelementptr inbounds float, ptr %"ctile", i64 %".772"
  %".774" = load float, ptr %".773", align 4
  %".775" = mul i64 %"i0", 80
  %".776" = add i64 %".775", %"j_5"
  %".777" = add i64 %".776", 304
  %".778" = getelementptr inbounds float, ptr %"C", i64 %".777"
  store float %".774", ptr %".778", align 4
  %".780" = add i64 %"j_5", 1
  store i64 %".780", ptr %"j_5.slot"
  br label %"j_5.head", !llvm.loop !7
j_5.exit:
  store i64 0, ptr %"j_6.slot"
  br label %"j_6.head"
j_6.head:
  %"j_6" = load i64, ptr %"j_6.slot"
  %".785" = icmp slt i64 %"j_6", 16
  br i1 %".785", label %"j_6.body", label %"j_6.exit"
j_6.body:
  %".787" = add i64 %"j_6", 128
  %".788" = getelementptr inbounds float, ptr %"ctile", i64 %".787"
  %".789" = load float, ptr %".788", align 4
  %".790" = mul i64 %"i0", 80
  %".791" = add i64 %".790", %"j_6"
  %".792" = add i64 %".791", 384
  %".793" = getelementptr inbounds float, ptr %"C", i64 %".792"
  store float %".789", ptr %".793", align 4
  %".795" = add i64 %"j_6", 1
  store i64 %".795", ptr %"j_6.slot"
  br label %"j_6.head", !llvm.loop !8
j_6.exit:
  store i64 0, ptr %"j_7.slot"
  br label %"j_7.head"
j_7.head:
  %"j_7" = load i64, ptr %"j_7.slot"
  %".800" = icmp slt i64 %"j_7", 16
  br i1 %".800", label %"j_7.body", label %"j_7.exit"
j_7.body:
  %".802" = add i64 %"j_7", 160
  %".803" = getelementptr inbounds float, ptr %"ctile", i64 %".802"
  %".804" = load float, ptr %".803", align 4
  %".805" = mul i64 %"i0", 80
  %".806" = add i64 %".805", %"j_7"
  %".807" = add i64 %".806", 464
  %".808" = getelementptr inbounds float, ptr %"C", i64 %".807"
  store float %".804", ptr %".808", align 4
  %".810" = add i64 %"j_7", 1
  store i64 %".810", ptr %"j_7.slot"
  br label %"j_7.head", !llvm.loop !9
j_7.exit:
  store i64 0, ptr %"j_8.slot"
  br label %"j_8.head"
j_8.head:
  %"j_8" = load i64, ptr %"j_8.slot"
  %".815" = icmp slt i64 %"j_8", 16
  br i1 %".815", label %"j_8.body", label %"j_8.exit"
j_8.body:
  %".817" = add i64 %"j_8", 192
  %".818" = getelementptr inbounds float, ptr %"ctile", i64 %".817"
  %".819" = load float, ptr %".818", align 4
  %".820" = mul i64 %"i0", 80
  %".821" = add i64 %".820", %"j_8"
  %".822" = add i64 %".821", 544
  %".823" = getelementptr inbounds float, ptr %"C", i64 %".822"
  store float %".819", ptr %".823", align 4
  %".825" = add i64 %"j_8", 1
  store i64 %".825", ptr %"j_8.slot"
  br label %"j_8.head", !llvm.loop !10
j_8.exit:
  store i64 0, ptr %"j_9.slot"
  br label %"j_9.head"
j_9.head:
  %"j_9" = load i64, ptr %"j_9.slot"
  %".830" = icmp slt i64 %"j_9", 16
  br i1 %".830", label %"j_9.body", label %"j_9.exit"
j_9.body:
  %".832" = add i64 %"j_9", 224
  %".833" = getelementptr inbounds float, ptr %"ctile", i64 %".832"
  %".834" = load float, ptr %".833", align 4
  %".835" = mul i64 %"i0", 80
  %".836" = add i64 %".835", %"j_9"
  %".837" = add i64 %".836", 624
  %".838" = getelementptr inbounds float, ptr %"C", i64 %".837"
  store float %".834", ptr %".838", align 4
  %".840" = add i64 %"j_9", 1
  store i64 %".840", ptr %"j_9.slot"
  br label %"j_9.head", !llvm.loop !11
j_9.exit:
  %".843" = add i64 %"i0", 8
  store i64 %".843", ptr %"i0.slot"
  br label %"i0.head"
}

define internal void @"kernel_0"(ptr noalias %"X_I_0", ptr noalias %"X_I_1", ptr noalias %"X_T2") "prefer-vector-width"="512"
{
entry:
  %"m.team" = alloca [65 x i32]
  %"m.ctx" = alloca {i64, i64, ptr, ptr, ptr, ptr}
  br label %"start"
start:
  ; kernel_0
  ; kernel_0(X_I_0,X_I_1): X_T2[m, n : _T0, _T1] = +(X_I_0[m, k] * X_I_1[k, n])
  %".7" = getelementptr inbounds {i64, i64, ptr, ptr, ptr, ptr}, ptr %"m.ctx", i32 0, i32 0
  store i64 0, ptr %".7"
  %".9" = getelementptr inbounds {i64, i64, ptr, ptr, ptr, ptr}, ptr %"m.ctx", i32 0, i32 1
  store i64 2, ptr %".9"
  %".11" = getelementptr inbounds {i64, i64, ptr, ptr, ptr, ptr}, ptr %"m.ctx", i32 0, i32 2
  store ptr %"X_I_0", ptr %".11"
  %".13" = getelementptr inbounds {i64, i64, ptr, ptr, ptr, ptr}, ptr %"m.ctx", i32 0, i32 3
  store ptr %"X_I_1", ptr %".13"
  %".15" = getelementptr inbounds {i64, i64, ptr, ptr, ptr, ptr}, ptr %"m.ctx", i32 0, i32 4
  store ptr %"X_T2", ptr %".15"
  %".17" = getelementptr inbounds {i64, i64, ptr, ptr, ptr, ptr}, ptr %"m.ctx", i32 0, i32 5
  store ptr %"m.team", ptr %".17"
  %".19" = call i32 @"plaidc.team_wanted"(ptr @"plaidc.shared_cpu")
  %".20" = icmp ne i32 %".19", 0
  %".21" = select  i1 %".20", i32 0, i32 1
  call void @"GOMP_parallel"(void (ptr)* @"kernel_0.parallel.1", ptr %"m.ctx", i32 %".21", i32 0)
  br i1 %".20", label %"start.if", label %"start.endif"
start.if:
  call void @"plaidc.team_check"(ptr @"plaidc.shared_cpu", ptr %"m.team", i32 64)
  br label %"start.endif"
start.endif:
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
  call void @"plaidc.team_mark"(ptr %".14")
  %".16" = call i32 @"omp_get_thread_num"()
  %".17" = sext i32 %".16" to i64
  %".18" = call i32 @"omp_get_num_threads"()
  %".19" = sext i32 %".18" to i64
  %".20" = sub i64 %".6", %".4"
  %".21" = add i64 %".20", 0
  %".22" = sdiv i64 %".21", 1
  %".23" = icmp slt i64 %".22", 0
  %".24" = select  i1 %".23", i64 0, i64 %".22"
  %".25" = sub i64 %".19", 1
  %".26" = add i64 %".24", %".25"
  %".27" = sdiv i64 %".26", %".19"
  %".28" = mul i64 %".17", %".27"
  %".29" = add i64 %".28", %".27"
  %".30" = icmp slt i64 %".29", %".24"
  %".31" = select  i1 %".30", i64 %".29", i64 %".24"
  store i64 %".28", ptr %"m.it.slot"
  br label %"m.it.head"
m.it.head:
  %"m.it" = load i64, ptr %"m.it.slot"
  %".34" = icmp slt i64 %"m.it", %".31"
  br i1 %".34", label %"m.it.body", label %"m.it.exit"
m.it.body:
  %".36" = mul i64 %"m.it", 1
  %"m" = add i64 %".4", %".36"
  ; kernel_0(X_I_0,X_I_1)
  ; #0
  %".40" = mul i64 %"m", 1536
  %".41" = getelementptr inbounds float, ptr %".8", i64 %".40"
  %".42" = mul i64 %"m", 2560
  %".43" = getelementptr inbounds float, ptr %".12", i64 %".42"
  call void @"gemm"(ptr %".41", ptr %".10", ptr %".43", ptr %"gemm_scratch")
  %".45" = add i64 %"m.it", 1
  store i64 %".45", ptr %"m.it.slot"
  br label %"m.it.head"
m.it.exit:
  ret void
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