package cpufeat

func init() { ARM64.HasASIMD = true }
