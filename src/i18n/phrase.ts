import type { Catalogue } from './en/index.js';

/**
 * A sentence not put into words yet: rendered in the run's language for the message and the
 * details, and in English where a program reads it (expected, actual), which never changes with
 * the language. For checks that collect problems and print them both ways.
 */
export type Phrase = (text: Catalogue) => string;
