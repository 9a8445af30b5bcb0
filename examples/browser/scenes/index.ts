/**
 * The demo's menu: each scene with its title, one-line caption, the view it opens in and how to build
 * it. The page (main.ts) and the tests read this list.
 * @module
 */
import type { DemoSceneOptions } from '../scene.js';
import type { ShowScene } from '../showScene.js';
import { createBulletsScene } from './bullets.js';
import { createCharacterScene } from './character.js';
import { createPitScene } from './pit.js';
import { createSensorsScene } from './sensors.js';
import { createSightScene } from './sight.js';
import { createStressScene } from './stress.js';

export type SceneId = 'bullets' | 'sight' | 'sensors' | 'pit' | 'character' | 'stress';
export type ViewKind = '2d' | '3d';

export interface SceneEntry {
  id: SceneId;
  title: string;
  caption: string;
  /** The view the scene opens in (both can draw every scene). */
  view: ViewKind;
  /** Controls of the panel this scene uses besides the common ones. */
  controls: readonly ('continuous' | 'bodies')[];
  create(options: DemoSceneOptions): ShowScene;
}

export const SCENES: readonly SceneEntry[] = [
  {
    id: 'bullets',
    title: 'Bullets vs a thin wall',
    caption: 'Bullets at 120 units/s hit a wall 0.1 thick: with continuous contacts none gets through; switch them off and every one does.',
    view: '2d',
    controls: ['continuous'],
    create: (o) => createBulletsScene({ continuous: o.continuous }),
  },
  {
    id: 'sight',
    title: 'Line of sight',
    caption: 'Each enemy casts a ray at you every tick: a red line means it sees you, grey means a wall is in the way. Walk with the arrow keys or WASD.',
    view: '2d',
    controls: [],
    create: () => createSightScene(),
  },
  {
    id: 'sensors',
    title: 'Sensors',
    caption: 'Sensor zones report the balls that touch them without stopping them: a zone lights up while a ball is inside it.',
    view: '2d',
    controls: [],
    create: (o) => createSensorsScene({ seed: o.seed }),
  },
  {
    id: 'pit',
    title: 'Ball pit',
    caption: '150 balls dropped into a box under gravity land on each other and the walls and, with friction, come to rest.',
    view: '3d',
    controls: [],
    create: (o) => createPitScene({ seed: o.seed }),
  },
  {
    id: 'character',
    title: 'Character controller',
    caption: 'A character walks up a ramp, down and up stairs and rides a moving platform: arrow keys or WASD to walk, Space to jump.',
    view: '3d',
    controls: [],
    create: () => createCharacterScene(),
  },
  {
    id: 'stress',
    title: 'Stress: 10k–100k bodies',
    caption: 'Thousands of bouncing spheres among static and moving boxes: the overlay shows the physics time per tick.',
    view: '3d',
    controls: ['continuous', 'bodies'],
    create: (o) => createStressScene(o),
  },
];

/** Menu entries not available yet, listed disabled with the reason. */
export const COMING: readonly { title: string; reason: string }[] = [];

export function sceneEntry(id: string): SceneEntry | undefined {
  return SCENES.find((s) => s.id === id);
}
