/**
 * Reading a scene file from disk for the headless runner (`--scene FILE`); the format and its
 * validation are in src/scenes/sceneFile.ts.
 * @module
 */
import { readFileSync } from 'node:fs';
import { parseScene, SceneFileError, type Scene } from '../scenes/sceneFile.js';

/** Reads and validates a scene file. Throws `SceneFileError` (also for a missing or unreadable file). */
export function loadSceneFile(path: string): Scene {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    const why = err.code === 'ENOENT' ? 'no such file' : err.code === 'EISDIR' ? 'is a directory' : err.message;
    throw new SceneFileError(path, `cannot read scene file: ${why}`);
  }
  return parseScene(text, path);
}
