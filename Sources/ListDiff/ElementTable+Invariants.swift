extension HashedElementTable {
    /// Traps unless every identity recorded holds a source or target element in range, and every source
    /// element is recorded exactly once; does nothing unless `LISTDIFF_INTERNAL_CHECKS` is defined.
    ///
    /// - Complexity: O(n + m).
    @usableFromInline
    func _checkInvariants(sourceCount: Int, targetCount: Int) {
        #if LISTDIFF_INTERNAL_CHECKS
            var sources = [Bool](repeating: false, count: sourceCount)
            var targets = [Bool](repeating: false, count: targetCount)
            for slot in storage.values {
                switch slot.claim {
                case .unclaimed:
                    preconditionFailure("an identity recorded without an element")
                case .source(let flat):
                    precondition(flat < sourceCount && !sources[flat], "source element \(flat) recorded twice or out of range")
                    sources[flat] = true
                case .target(let flat):
                    precondition(flat < targetCount && !targets[flat], "target element \(flat) recorded twice or out of range")
                    targets[flat] = true
                }
            }
            precondition(!sources.contains(false), "a source element is not recorded")
        #endif
    }
}

extension NumberedElementTable {
    /// Traps unless there are numbers for every element, each source element is recorded under its identity
    /// number, and each target element's number holds its source element or the target element itself; does
    /// nothing unless `LISTDIFF_INTERNAL_CHECKS` is defined.
    ///
    /// - Complexity: O(n + m).
    @usableFromInline
    func _checkInvariants(sourceCount: Int, targetCount: Int) {
        #if LISTDIFF_INTERNAL_CHECKS
            precondition(source.count == sourceCount && target.count == targetCount, "numbers are not one per element")
            for (flat, numbers) in source.enumerated() {
                precondition(slots[Int(numbers.identity)].claim == .source(flat), "source element \(flat) not under its number")
            }
            for (flat, numbers) in target.enumerated() {
                switch slots[Int(numbers.identity)].claim {
                case .source: continue
                case .target(let recorded): precondition(recorded == flat, "target element \(flat) under another's number")
                case .unclaimed: preconditionFailure("target element \(flat) not recorded")
                }
            }
        #endif
    }
}
