; ModuleID = "plaidc"
target triple = "unknown-unknown-unknown"
target datalayout = ""

define internal void @"kernel_0"(ptr noalias %"O", ptr noalias %"I", ptr noalias %"F", i64 %"x", i64 %"y") "prefer-vector-width"="512"
{
entry:
  %"e0.slot" = alloca i64
  %"e1.slot" = alloca i64
  %"e2.slot" = alloca i64
  %"i_1.slot" = alloca i64
  %"x_1.slot" = alloca i64
  %"j_1.slot" = alloca i64
  %"y_1.slot" = alloca i64
  %"k_1.slot" = alloca i64
  %"O_acc" = alloca i8
  %"c_1.slot" = alloca i64
  br label %"start"
start:
  ; kernel_0
  ; #0
  ; initialise what 'O' aggregates (add)
  store i64 0, ptr %"e0.slot"
  br label %"e0.head"
e0.head:
  %"e0" = load i64, ptr %"e0.slot"
  %".12" = icmp slt i64 %"e0", 3
  br i1 %".12", label %"e0.body", label %"e0.exit"
e0.body:
  store i64 0, ptr %"e1.slot"
  br label %"e1.head"
e0.exit:
  store i64 0, ptr %"i_1.slot"
  br label %"i_1.head"
e1.head:
  %"e1" = load i64, ptr %"e1.slot"
  %".16" = icmp slt i64 %"e1", 4
  br i1 %".16", label %"e1.body", label %"e1.exit"
e1.body:
  store i64 0, ptr %"e2.slot"
  br label %"e2.head"
e1.exit:
  %".38" = add i64 %"e0", 1
  store i64 %".38", ptr %"e0.slot"
  br label %"e0.head"
e2.head:
  %"e2" = load i64, ptr %"e2.slot"
  %".20" = icmp slt i64 %"e2", 16
  br i1 %".20", label %"e2.body", label %"e2.exit"
e2.body:
  %".22" = mul i64 %"e0", 256
  %".23" = mul i64 %"e1", 16
  %".24" = add i64 %".22", %".23"
  %".25" = add i64 %".24", %"e2"
  %".26" = mul i64 %"x", 768
  %".27" = add i64 %".25", %".26"
  %".28" = mul i64 %"y", 64
  %".29" = add i64 %".27", %".28"
  %".30" = getelementptr inbounds i8, ptr %"O", i64 %".29"
  store i8 0, ptr %".30", align 1
  %".32" = add i64 %"e2", 1
  store i64 %".32", ptr %"e2.slot"
  br label %"e2.head", !llvm.loop !2
e2.exit:
  %".35" = add i64 %"e1", 1
  store i64 %".35", ptr %"e1.slot"
  br label %"e1.head"
i_1.head:
  %"i_1" = load i64, ptr %"i_1.slot"
  %".43" = icmp slt i64 %"i_1", 3
  br i1 %".43", label %"i_1.body", label %"i_1.exit"
i_1.body:
  %".45" = mul i64 %"i_1", -1
  %".46" = mul i64 %"x", -3
  %".47" = add i64 %".45", %".46"
  %".48" = add i64 %".47", 1
  %".49" = icmp sgt i64 0, %".48"
  %".50" = select  i1 %".49", i64 0, i64 %".48"
  %".51" = mul i64 %"i_1", -1
  %".52" = mul i64 %"x", -3
  %".53" = add i64 %".51", %".52"
  %".54" = add i64 %".53", 12
  %".55" = icmp slt i64 2, %".54"
  %".56" = select  i1 %".55", i64 2, i64 %".54"
  %".57" = add i64 %".56", 1
  store i64 %".50", ptr %"x_1.slot"
  br label %"x_1.head"
i_1.exit:
  ret void
x_1.head:
  %"x_1" = load i64, ptr %"x_1.slot"
  %".60" = icmp slt i64 %"x_1", %".57"
  br i1 %".60", label %"x_1.body", label %"x_1.exit"
x_1.body:
  store i64 0, ptr %"j_1.slot"
  br label %"j_1.head"
x_1.exit:
  %".156" = add i64 %"i_1", 1
  store i64 %".156", ptr %"i_1.slot"
  br label %"i_1.head"
j_1.head:
  %"j_1" = load i64, ptr %"j_1.slot"
  %".64" = icmp slt i64 %"j_1", 3
  br i1 %".64", label %"j_1.body", label %"j_1.exit"
j_1.body:
  %".66" = mul i64 %"j_1", -1
  %".67" = mul i64 %"y", -4
  %".68" = add i64 %".66", %".67"
  %".69" = add i64 %".68", 1
  %".70" = icmp sgt i64 0, %".69"
  %".71" = select  i1 %".70", i64 0, i64 %".69"
  %".72" = mul i64 %"j_1", -1
  %".73" = mul i64 %"y", -4
  %".74" = add i64 %".72", %".73"
  %".75" = add i64 %".74", 16
  %".76" = icmp slt i64 3, %".75"
  %".77" = select  i1 %".76", i64 3, i64 %".75"
  %".78" = add i64 %".77", 1
  store i64 %".71", ptr %"y_1.slot"
  br label %"y_1.head"
j_1.exit:
  %".153" = add i64 %"x_1", 1
  store i64 %".153", ptr %"x_1.slot"
  br label %"x_1.head"
y_1.head:
  %"y_1" = load i64, ptr %"y_1.slot"
  %".81" = icmp slt i64 %"y_1", %".78"
  br i1 %".81", label %"y_1.body", label %"y_1.exit"
y_1.body:
  store i64 0, ptr %"k_1.slot"
  br label %"k_1.head"
y_1.exit:
  %".150" = add i64 %"j_1", 1
  store i64 %".150", ptr %"j_1.slot"
  br label %"j_1.head"
k_1.head:
  %"k_1" = load i64, ptr %"k_1.slot"
  %".85" = icmp slt i64 %"k_1", 16
  br i1 %".85", label %"k_1.body", label %"k_1.exit"
k_1.body:
  store i8 0, ptr %"O_acc"
  store i64 0, ptr %"c_1.slot"
  br label %"c_1.head"
k_1.exit:
  %".147" = add i64 %"y_1", 1
  store i64 %".147", ptr %"y_1.slot"
  br label %"y_1.head"
c_1.head:
  %"c_1" = load i64, ptr %"c_1.slot"
  %".90" = icmp slt i64 %"c_1", 8
  br i1 %".90", label %"c_1.body", label %"c_1.exit"
c_1.body:
  %".92" = mul i64 %"i_1", 128
  %".93" = add i64 %"c_1", %".92"
  %".94" = mul i64 %"j_1", 8
  %".95" = add i64 %".93", %".94"
  %".96" = mul i64 %"x", 384
  %".97" = add i64 %".95", %".96"
  %".98" = mul i64 %"x_1", 128
  %".99" = add i64 %".97", %".98"
  %".100" = mul i64 %"y", 32
  %".101" = add i64 %".99", %".100"
  %".102" = mul i64 %"y_1", 8
  %".103" = add i64 %".101", %".102"
  %".104" = add i64 %".103", -136
  %".105" = getelementptr inbounds i8, ptr %"I", i64 %".104"
  %"I_1" = load i8, ptr %".105", align 1
  %".107" = mul i64 %"i_1", 384
  %".108" = add i64 %"c_1", %".107"
  %".109" = mul i64 %"j_1", 128
  %".110" = add i64 %".108", %".109"
  %".111" = mul i64 %"k_1", 8
  %".112" = add i64 %".110", %".111"
  %".113" = getelementptr inbounds i8, ptr %"F", i64 %".112"
  %"F_1" = load i8, ptr %".113", align 1
  %"O_1" = mul i8 %"I_1", %"F_1"
  %".116" = load i8, ptr %"O_acc"
  %".117" = add i8 %".116", %"O_1"
  store i8 %".117", ptr %"O_acc"
  %".119" = add i64 %"c_1", 1
  store i64 %".119", ptr %"c_1.slot"
  br label %"c_1.head", !llvm.loop !3
c_1.exit:
  %".122" = mul i64 %"x", 768
  %".123" = add i64 %"k_1", %".122"
  %".124" = mul i64 %"x_1", 256
  %".125" = add i64 %".123", %".124"
  %".126" = mul i64 %"y", 64
  %".127" = add i64 %".125", %".126"
  %".128" = mul i64 %"y_1", 16
  %".129" = add i64 %".127", %".128"
  %".130" = getelementptr inbounds i8, ptr %"O", i64 %".129"
  %".131" = load i8, ptr %".130", align 1
  %".132" = load i8, ptr %"O_acc"
  %".133" = add i8 %".131", %".132"
  %".134" = mul i64 %"x", 768
  %".135" = add i64 %"k_1", %".134"
  %".136" = mul i64 %"x_1", 256
  %".137" = add i64 %".135", %".136"
  %".138" = mul i64 %"y", 64
  %".139" = add i64 %".137", %".138"
  %".140" = mul i64 %"y_1", 16
  %".141" = add i64 %".139", %".140"
  %".142" = getelementptr inbounds i8, ptr %"O", i64 %".141"
  store i8 %".133", ptr %".142", align 1
  %".144" = add i64 %"k_1", 1
  store i64 %".144", ptr %"k_1.slot"
  br label %"k_1.head"
}

define internal void @"plaidc_main"(ptr noalias %"F", ptr noalias %"I", ptr noalias %"O", ptr noalias %"plaidc_status") "prefer-vector-width"="512"
{
entry:
  %"x.slot" = alloca i64
  %"y.slot" = alloca i64
  br label %"start"
start:
  ; the whole program
  ; #0
  store i64 0, ptr %"x.slot"
  br label %"x.head"
x.head:
  %"x" = load i64, ptr %"x.slot"
  %".10" = icmp slt i64 %"x", 4
  br i1 %".10", label %"x.body", label %"x.exit"
x.body:
  store i64 0, ptr %"y.slot"
  br label %"y.head"
x.exit:
  ret void
y.head:
  %"y" = load i64, ptr %"y.slot"
  %".14" = icmp slt i64 %"y", 4
  br i1 %".14", label %"y.body", label %"y.exit"
y.body:
  call void @"kernel_0"(ptr %"O", ptr %"I", ptr %"F", i64 %"x", i64 %"y")
  %".17" = add i64 %"y", 1
  store i64 %".17", ptr %"y.slot"
  br label %"y.head"
y.exit:
  %".20" = add i64 %"x", 1
  store i64 %".20", ptr %"x.slot"
  br label %"x.head"
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