print("tether: not built yet")
