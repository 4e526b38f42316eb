func.func @dynamic_packing(%a: tensor<?xi8>, %n: index, %m: index) -> tensor<?xi4> {
  %b = flow.tensor.bitcast %a : tensor<?xi8>{%n} -> tensor<?xi4>{%m}
  return %b : tensor<?xi4>
}
