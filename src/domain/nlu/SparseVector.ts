/** A sparse vector: the indices of its non-zero entries (ascending) and their values. */
export interface SparseVector {
  readonly indices: Int32Array
  readonly values: Float32Array
}

/** The dot product of two sparse vectors (both with ascending indices). */
export const dot = (a: SparseVector, b: SparseVector): number => {
  let sum = 0
  let i = 0
  let j = 0
  while (i < a.indices.length && j < b.indices.length) {
    const left = a.indices[i]!
    const right = b.indices[j]!
    if (left === right) sum += a.values[i++]! * b.values[j++]!
    else if (left < right) i++
    else j++
  }
  return sum
}
