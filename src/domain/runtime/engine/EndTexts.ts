/**
 * What a conversation the engine had to end says, so that the user is not
 * left with silence (an imported router without a fallback edge meeting a
 * message it does not understand is the common case). Flow repair gives a
 * missing fallback an end node that says the same.
 */
export const ENGINE_END_TEXT = {
  "dead-end": "Sorry, I can't help with that here. This conversation has ended.",
  "loop-limit": "Sorry, something went wrong on our side. This conversation has ended."
} as const
