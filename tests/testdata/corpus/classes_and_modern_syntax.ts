// Classes with TypeScript modifiers, private fields, accessors, and modern
// operators.
abstract class Shape {
  static count = 0;
  protected constructor(public readonly name: string) {
    Shape.count++;
  }
  abstract area(): number;
  describe(): string {
    return `${this.name} with area ${this.area().toFixed(2)}`;
  }
}
class Circle extends Shape {
  #r: number;
  constructor(r: number) {
    super("circle");
    this.#r = r;
  }
  get radius() {
    return this.#r;
  }
  set radius(v: number) {
    this.#r = Math.max(0, v);
  }
  area() {
    return Math.PI * this.#r ** 2;
  }
  static isCircle(x: object): boolean {
    return #r in x;
  }
  static #unit?: Circle;
  static unit(): Circle {
    return (Circle.#unit ??= new Circle(1));
  }
}
class Rect extends Shape {
  constructor(private w: number, private h: number) {
    super("rect");
  }
  area() {
    return this.w * this.h;
  }
}
const shapes: Shape[] = [new Circle(2), new Rect(3, 4), Circle.unit(), Circle.unit()];
const c = shapes[0] as Circle;
c.radius = -5;
const config: { retries?: number; name?: string | null; nested?: { deep?: { value?: number } } } = { name: null };
config.retries ||= 3;
config.name ??= "default";
const label = config.nested?.deep?.value ?? "none";
const big = 2n ** 64n;
return {
  described: shapes.map((s) => s.describe()),
  count: Shape.count,
  radius: c.radius,
  brand: [Circle.isCircle(c), Circle.isCircle(shapes[1])],
  config,
  label,
  big: big.toString(),
  numbers: [1_000_000, 0b1010, 0o17, 0xff, 2 ** 10],
  spread: { ...{ a: 1, b: 2 }, b: 3 },
  at: [[1, 2, 3].at(-1), "abc".at(0)],
  entries: Object.fromEntries(Object.entries({ x: 1, y: 2 }).map(([k, v]) => [k.toUpperCase(), v * 10])),
  flat: [[1, [2]], [3]].flat(2),
  hasOwn: Object.hasOwn({ own: 1 }, "own"),
  findLast: [1, 2, 3, 4].findLast((n) => n % 2 === 1),
};
