/**
 * The strongly connected components of a directed graph (Tarjan's algorithm,
 * iteratively, so a long chain cannot overflow the stack): linear in nodes
 * and edges. Flow analysis finds inescapable loops with it, workflow
 * validation the cycles no loop bounds.
 */

/** The components reachable from `ids` (each id a root in turn), over the edges `successors` gives. */
export const stronglyConnected = <Id>(
  ids: ReadonlyArray<Id>,
  successors: (id: Id) => ReadonlyArray<Id>
): ReadonlyArray<ReadonlyArray<Id>> => {
  const number = new Map<Id, number>()
  const lowlink = new Map<Id, number>()
  const onStack = new Set<Id>()
  const stack: Array<Id> = []
  const found: Array<ReadonlyArray<Id>> = []
  let counter = 0
  const open = (id: Id) => {
    number.set(id, counter)
    lowlink.set(id, counter++)
    stack.push(id)
    onStack.add(id)
  }
  for (const root of ids) {
    if (number.has(root)) continue
    open(root)
    const work: Array<{ readonly id: Id; next: number }> = [{ id: root, next: 0 }]
    while (work.length > 0) {
      const frame = work[work.length - 1]!
      const targets = successors(frame.id)
      if (frame.next < targets.length) {
        const target = targets[frame.next++]!
        if (!number.has(target)) {
          open(target)
          work.push({ id: target, next: 0 })
        } else if (onStack.has(target)) {
          lowlink.set(frame.id, Math.min(lowlink.get(frame.id)!, number.get(target)!))
        }
        continue
      }
      work.pop()
      const parent = work[work.length - 1]
      if (parent !== undefined) lowlink.set(parent.id, Math.min(lowlink.get(parent.id)!, lowlink.get(frame.id)!))
      if (lowlink.get(frame.id) !== number.get(frame.id)) continue
      const component: Array<Id> = []
      let member: Id
      do {
        member = stack.pop()!
        onStack.delete(member)
        component.push(member)
      } while (member !== frame.id)
      found.push(component)
    }
  }
  return found
}
