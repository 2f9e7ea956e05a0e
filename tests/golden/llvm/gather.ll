; ModuleID = "plaidc"
target triple = "unknown-unknown-unknown"
target datalayout = ""

define internal void @"plaidc_main"(ptr noalias %"I", ptr noalias %"O", ptr noalias %"V", ptr noalias %"plaidc_status") "prefer-vector-width"="512"
{
entry:
  %"e0.slot" = alloca i64
  %"e1.slot" = alloca i64
  %"e2.slot" = alloca i64
  br label %"start"
start:
  ; the whole program
  ; main
  store i64 0, ptr %"e0.slot"
  br label %"e0.head"
e0.head:
  %"e0" = load i64, ptr %"e0.slot"
  %".10" = icmp slt i64 %"e0", 3
  br i1 %".10", label %"e0.body", label %"e0.exit"
e0.body:
  store i64 0, ptr %"e1.slot"
  br label %"e1.head"
e0.exit:
  ret void
e1.head:
  %"e1" = load i64, ptr %"e1.slot"
  %".14" = icmp slt i64 %"e1", 5
  br i1 %".14", label %"e1.body", label %"e1.exit"
e1.body:
  store i64 0, ptr %"e2.slot"
  br label %"e2.head"
e1.exit:
  %".45" = add i64 %"e0", 1
  store i64 %".45", ptr %"e0.slot"
  br label %"e0.head"
e2.head:
  %"e2" = load i64, ptr %"e2.slot"
  %".18" = icmp slt i64 %"e2", 4
  br i1 %".18", label %"e2.body", label %"e2.exit"
e2.body:
  %".20" = mul i64 %"e0", 5
  %".21" = add i64 %".20", %"e1"
  %".22" = getelementptr inbounds i32, ptr %"I", i64 %".21"
  %"I_elem" = load i32, ptr %".22", align 4
  %"index" = sext i32 %"I_elem" to i64
  %".25" = icmp slt i64 %"index", 9
  %".26" = select  i1 %".25", i64 %"index", i64 9
  %".27" = icmp sgt i64 0, %".26"
  %".28" = select  i1 %".27", i64 0, i64 %".26"
  %".29" = mul i64 %".28", 4
  %".30" = add i64 %".29", %"e2"
  %".31" = getelementptr inbounds float, ptr %"V", i64 %".30"
  %"V_elem" = load float, ptr %".31", align 4
  %".33" = mul i64 %"e0", 20
  %".34" = mul i64 %"e1", 4
  %".35" = add i64 %".33", %".34"
  %".36" = add i64 %".35", %"e2"
  %".37" = getelementptr inbounds float, ptr %"O", i64 %".36"
  store float %"V_elem", ptr %".37", align 4
  %".39" = add i64 %"e2", 1
  store i64 %".39", ptr %"e2.slot"
  br label %"e2.head"
e2.exit:
  %".42" = add i64 %"e1", 1
  store i64 %".42", ptr %"e1.slot"
  br label %"e1.head"
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
