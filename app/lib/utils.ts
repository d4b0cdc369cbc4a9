import { clsx, type ClassValue } from "clsx";
import { twMerge } from "tailwind-merge";

/** Joins class names, letting later Tailwind utilities override earlier ones. */
export function cn(...inputs: ClassValue[]) {
  return twMerge(clsx(inputs));
}

/** "strategy" → "Strategy". */
export function capitalize(word: string) {
  return word.charAt(0).toUpperCase() + word.slice(1);
}
