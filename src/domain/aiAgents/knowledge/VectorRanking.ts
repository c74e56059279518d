/**
 * The vector side of hybrid retrieval (DESIGN.md §7): embeddings stored as
 * float32 bytes, normalised to unit length when stored and when a query is
 * embedded, so that cosine similarity is their dot product; an exact ranking
 * of a scope's vectors by cosine (no approximate index: at the sizes an
 * agent's knowledge has, reading and scoring every vector is fast enough,
 * bench/README.md "knowledge"); and the fusion of that ranking with the
 * lexical one by reciprocal rank fusion (`Rrf.ts`).
 */
import { fuse, RRF_K } from "./Rrf.js"

/** How many chunks the vector ranking hands to the fusion. */
export const VECTOR_CANDIDATES = 50

/** `vector` scaled to unit length (a zero vector stays zero). */
export const normalized = (vector: ReadonlyArray<number>): Float32Array => {
  let norm = 0
  for (const value of vector) norm += value * value
  norm = Math.sqrt(norm)
  const unit = new Float32Array(vector.length)
  if (norm === 0 || !Number.isFinite(norm)) return unit
  for (let i = 0; i < vector.length; i++) unit[i] = vector[i]! / norm
  return unit
}

/** A vector as stored: its float32 values, little-endian. */
export const toBytes = (vector: Float32Array): Uint8Array => {
  const bytes = new Uint8Array(vector.length * 4)
  const view = new DataView(bytes.buffer)
  vector.forEach((value, i) => view.setFloat32(i * 4, value, true))
  return bytes
}

/** Whether this machine stores floats little-endian, as the stored bytes are (then they are copied as they are). */
const littleEndian = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1

/** The vector of stored bytes (a length that is not a multiple of 4 loses its tail). */
export const fromBytes = (bytes: Uint8Array): Float32Array => {
  const length = Math.floor(bytes.byteLength / 4)
  // A copy: a Buffer's bytes may sit unaligned inside a shared pool.
  if (littleEndian) return new Float32Array(new Uint8Array(bytes.subarray(0, length * 4)).buffer)
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const vector = new Float32Array(length)
  for (let i = 0; i < vector.length; i++) vector[i] = view.getFloat32(i * 4, true)
  return vector
}

/** Cosine similarity, -1 to 1 (0 when either is zero or their lengths differ). */
export const cosine = (a: ArrayLike<number>, b: ArrayLike<number>): number => {
  if (a.length !== b.length || a.length === 0) return 0
  let dot = 0
  let normA = 0
  let normB = 0
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!
    normA += a[i]! * a[i]!
    normB += b[i]! * b[i]!
  }
  return normA === 0 || normB === 0 ? 0 : dot / Math.sqrt(normA * normB)
}

/** The dot product of two unit vectors of one length: their cosine, cheaper (stored vectors are unit). */
const dot = (a: Float32Array, b: Float32Array): number => {
  let sum = 0
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!
  return sum
}

/**
 * The `limit` items whose unit vectors are nearest the unit `query` by
 * cosine, best first (ties in the order given); an item whose vector has
 * another length than the query's (another model's) is left out.
 */
export const nearest = <Item extends { readonly vector: Float32Array }>(
  query: Float32Array,
  items: ReadonlyArray<Item>,
  limit: number
): Array<{ readonly item: Item; readonly similarity: number }> =>
  items
    .flatMap((item, order) =>
      item.vector.length === query.length ? [{ item, similarity: dot(query, item.vector), order }] : []
    )
    .sort((a, b) => b.similarity - a.similarity || a.order - b.order)
    .slice(0, limit)
    .map(({ item, similarity }) => ({ item, similarity }))

/**
 * The lexical ranking and the vector ranking (keys best first) fused by RRF
 * (k = 60), best first, each with its normalised fused score (0 to 1: 1 is
 * first in both); ties keep the lexical order.
 */
export const fuseHybrid = <Key>(
  lexical: ReadonlyArray<Key>,
  vector: ReadonlyArray<Key>
): Array<{ readonly key: Key; readonly score: number }> =>
  fuse([lexical, vector], RRF_K).map(({ key, normalized }) => ({ key, score: normalized }))

/** A search query's unit vector and the embedding model that made it (only vectors of that model compare). */
export interface QueryVector {
  readonly model: string
  readonly embedding: Float32Array
}
