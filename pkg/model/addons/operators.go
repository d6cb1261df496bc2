package addons

// Operators is every addon operator kops can deploy, one line each: the builders, the golden and
// channel tests, `kops validate cluster`, `kops get assets` and `make images` all read this list,
// so adding an operator is its data (an Operator value) and one line here. Built afresh on each
// call, so no caller can change another's.
func Operators() []*Operator {
	return []*Operator{
		coreDNSOperator(),
	}
}

// OperatorOf is the operator whose addon (Descriptor.AddonName) is name, or nil.
func OperatorOf(name string) *Operator {
	for _, o := range Operators() {
		if o.Descriptor.AddonName == name {
			return o
		}
	}
	return nil
}
