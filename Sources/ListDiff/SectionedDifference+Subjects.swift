extension SectionedDifference {
    /// The section or element each operation of ``sequential`` concerns, in the same order: removals name
    /// their source position, every other operation its subject's final position (a move's, too, whose own
    /// indices are intermediate).
    ///
    /// It walks the tables in ``sequential``'s order without placing anything (no moves are computed); the
    /// property tests check, operation by operation, that each subject is the one the operation concerns.
    ///
    /// - Complexity: O(n + m).
    public var sequentialSubjects: [ChangeSubject] {
        let m = matching
        var subjects: [ChangeSubject] = []
        subjects.reserveCapacity(counts.total)
        forEachRemoval { section in
            subjects.append(.section(section, in: .source))
        } element: { path, _ in
            subjects.append(.element(path, in: .source))
        }
        for section in m.targetSectionSource.indices where sectionMoved[section] {
            subjects.append(.section(section, in: .target))
        }
        for (section, source) in m.targetSectionSource.enumerated() where source.isAbsent {
            subjects.append(.section(section, in: .target))
        }
        for element in 0..<m.targetElementCount where elementFate[element] == .moved {
            subjects.append(.element(targetPath(element), in: .target))
        }
        for element in 0..<m.targetElementCount where elementFate[element] == .inserted {
            subjects.append(.element(targetPath(element), in: .target))
        }
        for element in 0..<m.targetElementCount where elementUpdated[element] {
            subjects.append(.element(targetPath(element), in: .target))
        }
        for (section, source) in m.targetSectionSource.enumerated() where source.index != nil && m.sectionChanged[section] {
            subjects.append(.section(section, in: .target))
        }
        return subjects
    }
}
