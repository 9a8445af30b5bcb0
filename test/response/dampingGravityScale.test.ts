/**
 * Linear damping and gravity scale per dynamic body (docs/response.md): each tick, before the
 * motion, v ← (v + s·g·dt) / (1 + dt·c) (Box2D v2.4's b2Island::Solve, Rapier's damping factor), with s =
 * Response.gravityScale (default 1) and c = Response.damping (default 0); validation, set() and the
 * defaults of a Response added with bitecs.
 */
import { addComponent, addEntity, set } from 'bitecs';
import { describe, expect, it } from 'vitest';
import { addSphere, PhysicsInputError, setVelocity, step } from '../../src/index.js';
import { expectError } from '../support/inputError.js';
import { freshPhysics, pos, vel } from '../support/response.js';

const DT = 1 / 60;
const G = -9.81;

describe('damping', () => {
  it('v ← v / (1 + dt·c) each tick, free flight without gravity', () => {
    const physics = freshPhysics({ dt: DT });
    const s = addSphere(physics, { position: [0, 0, 0], velocity: [3, -2, 1], radius: 0.5, response: 'slide', damping: 2 });
    let expected = 3;
    let x = 0;
    for (let i = 0; i < 30; i++) {
      step(physics);
      expected /= 1 + DT * 2;
      x += expected * DT;
    }
    expect(vel(physics, s)[0]).toBeCloseTo(expected, 12);
    expect(pos(physics, s)[0]).toBeCloseTo(x, 12);
  });

  it('with gravity: terminal velocity g / c (from (v + g dt) / (1 + dt c) = v)', () => {
    const physics = freshPhysics({ dt: DT, gravity: [0, G, 0] });
    const s = addSphere(physics, { position: [0, 0, 0], velocity: [0, 0, 0], radius: 0.5, response: 'slide', damping: 4 });
    for (let i = 0; i < 2000; i++) step(physics);
    expect(vel(physics, s)[1]).toBeCloseTo(G / 4, 9);
  });
});

describe('gravity scale', () => {
  for (const scale of [0, 1, 2.5, -1]) {
    it(`scale ${scale}: the body falls at ${scale} g`, () => {
      const physics = freshPhysics({ dt: DT, gravity: [0, G, 0] });
      const s = addSphere(physics, { position: [0, 0, 0], velocity: [0, 0, 0], radius: 0.5, response: 'slide', gravityScale: scale });
      for (let i = 0; i < 60; i++) step(physics);
      expect(vel(physics, s)[1]).toBeCloseTo(scale * G, 12);
    });
  }

  it('a Response added with bitecs gets scale 1 and damping 0 (a recycled id keeps no old values)', () => {
    const physics = freshPhysics({ dt: DT, gravity: [0, G, 0] });
    const { world, components: c } = physics;
    const s = addSphere(physics, { position: [0, 0, 0], velocity: [0, 0, 0], radius: 0.5, response: 'slide', gravityScale: 0, damping: 3 });
    const e = addEntity(world);
    addComponent(world, e, c.Position);
    addComponent(world, e, c.Velocity);
    addComponent(world, e, c.Sphere);
    c.Sphere.radius[e] = 0.5;
    c.Position.x[e] = 10;
    addComponent(world, e, c.Response);
    expect(c.Response.gravityScale[e]).toBe(1);
    expect(c.Response.damping[e]).toBe(0);
    expect(c.Response.gravityScale[s]).toBe(0);
    step(physics);
    expect(vel(physics, e)[1]).toBeCloseTo(G * DT, 15);
    expect(vel(physics, s)[1]).toBe(0);
  });
});

describe('validation', () => {
  it('addSphere names damping and gravityScale; both need a response', () => {
    const physics = freshPhysics();
    const base = { position: [0, 0, 0] as [number, number, number], velocity: [0, 0, 0] as [number, number, number], radius: 1, response: 'slide' as const };
    expectError(() => addSphere(physics, { ...base, damping: -1 }), -1, 'addSphere: damping');
    expectError(() => addSphere(physics, { ...base, damping: Infinity }), -1, 'addSphere: damping');
    expectError(() => addSphere(physics, { ...base, gravityScale: NaN }), -1, 'addSphere: gravityScale');
    expectError(() => addSphere(physics, { ...base, friction: -0.5 }), -1, 'addSphere: friction');
    expectError(() => addSphere(physics, { position: [0, 0, 0], radius: 1, damping: 1 }), -1, 'addSphere: damping', /needs a response/);
    expectError(() => addSphere(physics, { position: [0, 0, 0], radius: 1, gravityScale: 1 }), -1, 'addSphere: gravityScale', /needs a response/);
  });

  it('step names Response.damping, Response.gravityScale and Material.friction written directly, before writing anything', () => {
    for (const [field, bad] of [['damping', -1], ['damping', NaN], ['gravityScale', Infinity], ['friction', -2], ['friction', NaN]] as const) {
      const physics = freshPhysics({ gravity: [0, G, 0] });
      const s = addSphere(physics, { position: [0, 0, 0], velocity: [1, 0, 0], radius: 1, response: 'slide', friction: 0.5 });
      if (field === 'friction') physics.components.Material.friction[s] = bad;
      else physics.components.Response[field][s] = bad;
      const name = field === 'friction' ? 'Material.friction' : `Response.${field}`;
      const err = expectError(() => step(physics), s, name);
      expect(err).toBeInstanceOf(PhysicsInputError);
      expect(vel(physics, s)).toEqual([1, 0, 0]);
      expect(pos(physics, s)).toEqual([0, 0, 0]);
    }
  });

  it('set(Response, {damping, gravityScale}) and set(Material, {friction}) write validated values', () => {
    const physics = freshPhysics();
    const { world, components: c } = physics;
    const s = addSphere(physics, { position: [0, 0, 0], velocity: [0, 0, 0], radius: 1, response: 'slide' });
    addComponent(world, s, set(c.Response, { damping: 0.5, gravityScale: -2 }));
    expect([c.Response.damping[s], c.Response.gravityScale[s]]).toEqual([0.5, -2]);
    addComponent(world, s, set(c.Material, { friction: 0.8 }));
    expect(c.Material.friction[s]).toBe(0.8);
    const e = addEntity(world);
    expectError(() => addComponent(world, e, set(c.Material, { friction: -1 })), e, 'set(Material): Material.friction');
    expectError(() => addComponent(world, e, set(c.Material, { frictoin: 1 })), e, 'set(Material): frictoin');
    expectError(() => addComponent(world, s, set(c.Response, { damping: -1 })), s, 'set(Response): Response.damping');
    expectError(() => addComponent(world, s, set(c.Response, { gravityScale: NaN })), s, 'set(Response): Response.gravityScale');
    expect([c.Response.damping[s], c.Response.gravityScale[s]]).toEqual([0.5, -2]);
    setVelocity(physics, s, [0, 0, 0]);
  });
});
