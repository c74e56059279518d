/** Whether a string of digits passes the Luhn (mod 10) check that payment card numbers carry. */
export const luhnValid = (digits: string): boolean => {
  let sum = 0
  let double = false
  for (let i = digits.length - 1; i >= 0; i--) {
    let digit = digits.charCodeAt(i) - 48
    if (digit < 0 || digit > 9) return false
    if (double) {
      digit *= 2
      if (digit > 9) digit -= 9
    }
    sum += digit
    double = !double
  }
  return digits.length > 0 && sum % 10 === 0
}
