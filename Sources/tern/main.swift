print("tern")
