print("tether-sim: not built yet")
