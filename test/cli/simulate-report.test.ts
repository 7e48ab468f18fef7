/**
 * The HTML report `nodesmith simulate` writes, opened the way a platform engineer opens it: in
 * a real headless Chromium, from a file, with the network blocked. Any console error, page
 * error or request beyond the file itself fails the test; each chart must have drawn.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import chromium from '@sparticuz/chromium';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderHtmlReport } from '../../simulator/report/html-report.ts';
import type { SimulationReport, SimulationSummary } from '../../simulator/run/simulation-report.ts';
import { runCliInProcess } from '../support/cli-in-process.ts';

interface Opened {
  readonly page: Page;
  readonly problems: string[];
}

let browser: Browser;

beforeAll(async () => {
  browser = await puppeteer.launch({
    args: [...chromium.args, '--lang=en-US'],
    // uPlot formats numbers in the browser's locale; a bare C locale is not a valid tag.
    env: { ...process.env, LANG: 'en_US.UTF-8' },
    executablePath: await chromium.executablePath(),
    headless: true,
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

async function open(file: string): Promise<Opened> {
  const page = await browser.newPage();
  const problems: string[] = [];
  const url = pathToFileURL(file).href;
  await page.setRequestInterception(true);
  page.on('request', (request) => {
    if (request.url() === url) return void request.continue();
    problems.push(`request ${request.url()}`);
    void request.abort();
  });
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error ${(error as Error).message}`));
  await page.setViewport({ width: 1280, height: 900 });
  await page.goto(url, { waitUntil: 'load' });
  return { page, problems };
}

/** Whether the chart's canvas has a size and some pixels that are not blank. */
function chartDrew(page: Page, name: string) {
  return page.$eval(`[data-chart="${name}"]`, (el) => {
    const canvas = el.querySelector('canvas');
    if (canvas === null) return { drawn: el.getAttribute('data-drawn'), width: 0, inked: 0 };
    const pixels = canvas.getContext('2d')?.getImageData(0, 0, canvas.width, canvas.height).data;
    let inked = 0;
    for (let i = 3; pixels !== undefined && i < pixels.length; i += 4) if (pixels[i] !== 0) inked++;
    return { drawn: el.getAttribute('data-drawn'), width: canvas.width, inked };
  });
}

/** A report of a run that launched nothing, with these summary fields and these parts. */
function aQuietReport(
  summary: Partial<SimulationSummary> = {},
  parts: Partial<Omit<SimulationReport, 'summary'>> = {},
): SimulationReport {
  return {
    summary: {
      scenario: 'burst',
      pods: { total: 0, running: 0, pending: 0 },
      nodes: { launched: 0, terminated: 0, running: 0 },
      costPerHour: 0,
      decisionLatencyMs: { p50: 0, p99: 0 },
      launches: 0,
      replans: 0,
      duplicateLaunches: 0,
      leakedInstances: 0,
      unschedulable: [],
      invariants: [],
      wakes: { admission: 0, audit: 0, tick: 0, self: 0 },
      ...summary,
    },
    seed: 1,
    duration: 0,
    samples: [],
    timeline: [],
    decisions: [],
    ...parts,
  };
}

/** Each row of the table as its cells' text. */
function tableText(page: Page, selector: string): Promise<string[][]> {
  return page.$$eval(`${selector} tbody tr`, (rows) =>
    rows.map((row) => [...row.querySelectorAll('td')].map((td) => td.textContent ?? '')),
  );
}

describe('the simulate report in a browser', () => {
  it('opens offline with no errors, and every chart draws', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'report-')), 'report.html');
    const run = await runCliInProcess(['simulate', '--pods', '60', '--report', file]);
    expect(run.status).toBe(0);
    const { page, problems } = await open(file);
    for (const chart of ['pending', 'nodes', 'cost', 'budget']) {
      const drew = await chartDrew(page, chart);
      expect(drew.drawn, chart).toBe('true');
      expect(drew.width, chart).toBeGreaterThan(0);
      expect(drew.inked, chart).toBeGreaterThan(100);
    }
    const text = await page.$eval('main', (el) => el.textContent ?? '');
    expect(text).toContain('60 / 60');
    expect(text).toContain('no double launch');
    expect(await page.$$eval('.invariants li.held', (items) => items.length)).toBe(11);
    const rows = await page.$$eval('table.decisions tbody tr', (items) => items.length);
    const launched = (readFileSync(file, 'utf8').match(/<td>Launched<\/td>/g) ?? []).length;
    expect(rows).toBeGreaterThan(launched);
    expect(problems).toEqual([]);
    await page.close();
  }, 120_000);

  it('shows the disruptions of a consolidation, their reasons and the budget over time', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'report-')), 'report.html');
    const run = await runCliInProcess([
      'simulate',
      '--scenario',
      'consolidation',
      '--pods',
      '60',
      '--report',
      file,
    ]);
    expect(run.status).toBe(0);
    const { page, problems } = await open(file);
    const drew = await chartDrew(page, 'budget');
    expect(drew.drawn).toBe('true');
    expect(drew.inked).toBeGreaterThan(100);
    const disruptions = await page.$$eval('table.decisions tbody tr', (rows) =>
      rows
        .map((row) => [...row.querySelectorAll('td')].map((td) => td.textContent ?? ''))
        .filter((cells) => cells[1] === 'Disrupting')
        .map((cells) => cells[8] ?? ''),
    );
    expect(disruptions.length).toBeGreaterThan(0);
    expect(disruptions.filter((reason) => !/^(Empty|Underutilized): /.test(reason))).toEqual([]);
    const budget = await page.$eval('#chart-data', (el) => JSON.parse(el.textContent ?? '{}'));
    expect(Math.max(...budget.disrupting)).toBeGreaterThan(0);
    expect(Math.max(...budget.allowed)).toBeGreaterThan(0);
    expect(problems).toEqual([]);
    await page.close();
  }, 120_000);

  it('draws cost against the cluster hourly-cost limit, and says when the limit was reached', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'report-')), 'report.html');
    const run = await runCliInProcess([
      'simulate',
      '--scenario',
      'limits',
      '--pods',
      '120',
      '--report',
      file,
    ]);
    expect(run.status).toBe(0);
    const { page, problems } = await open(file);
    const drew = await chartDrew(page, 'cost');
    expect(drew.drawn).toBe('true');
    expect(drew.inked).toBeGreaterThan(100);
    const legend = await page.$eval('[data-chart="cost"]', (el) => el.textContent ?? '');
    expect(legend).toContain('hourly-cost limit');
    const data = await page.$eval('#chart-data', (el) => JSON.parse(el.textContent ?? '{}'));
    expect(new Set(data.costLimit)).toEqual(new Set([1.02]));
    expect(Math.max(...data.cost)).toBeLessThanOrEqual(1.02);
    expect(Math.max(...data.cost)).toBeGreaterThan(0.9);
    const text = await page.$eval('main', (el) => el.textContent ?? '');
    expect(text).toContain('limit reached: The cluster would exceed its hourly cost limit');
    expect(problems).toEqual([]);
    await page.close();
  }, 120_000);

  it("shows a deployed run's AWS calls per function and highlights every denial", async () => {
    // Prepare
    const hostile = '<img src=x onerror="window.pwned=1">';
    const report = aQuietReport({
      aws: {
        calls: { 'ec2:CreateFleet': 3, 'ec2:DescribeInstances': 7, 'sqs:SendMessage': 2 },
        denied: [
          {
            function: 'Controller9BE1D41E',
            action: 'ec2:CreateFleet',
            resource: `arn:aws:ec2:us-east-1:111122223333:fleet/${hostile}`,
          },
        ],
        byFunction: {
          Controller9BE1D41E: { 'ec2:CreateFleet': 3, 'ec2:DescribeInstances': 6 },
          AuditLogs7B2A6859: { 'ec2:DescribeInstances': 1, 'sqs:SendMessage': 2 },
        },
      },
      kubernetes: {
        denied: [
          {
            function: 'Controller9BE1D41E',
            user: 'nodesmith:controller',
            verb: 'patch',
            resource: 'nodes',
            name: 'ip-10-0-1-7',
            message: 'nodes "ip-10-0-1-7" is forbidden',
          },
        ],
      },
    });
    const file = join(mkdtempSync(join(tmpdir(), 'report-')), 'deployed.html');
    writeFileSync(file, renderHtmlReport(report));
    // Act
    const { page, problems } = await open(file);
    // Assess
    const heads = await page.$$eval('table.aws-calls th', (ths) => ths.map((th) => th.textContent));
    expect(heads).toEqual(['action', 'AuditLogs7B2A6859', 'Controller9BE1D41E', 'all']);
    expect(await tableText(page, 'table.aws-calls')).toEqual([
      ['ec2:CreateFleet', '', '3', '3'],
      ['ec2:DescribeInstances', '1', '6', '7'],
      ['sqs:SendMessage', '2', '', '2'],
    ]);
    const highlighted = await page.$$eval('table.aws-calls td.denied', (tds) =>
      tds.map((td) => td.closest('tr')?.querySelector('td')?.textContent),
    );
    expect(highlighted).toEqual(['ec2:CreateFleet']);
    expect(await tableText(page, 'table.denials')).toEqual([
      [
        'Controller9BE1D41E',
        'ec2:CreateFleet',
        `arn:aws:ec2:us-east-1:111122223333:fleet/${hostile}`,
        '',
      ],
      ['Controller9BE1D41E', 'k8s:patch:nodes', 'ip-10-0-1-7', 'nodes "ip-10-0-1-7" is forbidden'],
    ]);
    const color = await page.$eval(
      'table.denials tbody td',
      (td) => td.ownerDocument.defaultView?.getComputedStyle(td).color,
    );
    expect(color).toBe('rgb(185, 28, 28)');
    expect(await page.evaluate(() => (globalThis as { pwned?: number }).pwned)).toBeUndefined();
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  it('says so when a deployed run was denied nothing, and leaves the section out in process', async () => {
    // Prepare
    const deployed = join(mkdtempSync(join(tmpdir(), 'report-')), 'deployed.html');
    const calls = { 'ec2:DescribeInstances': 1 };
    writeFileSync(
      deployed,
      renderHtmlReport(
        aQuietReport({
          aws: { calls, denied: [], byFunction: { Controller9BE1D41E: calls } },
          kubernetes: { denied: [] },
        }),
      ),
    );
    const inProcess = join(mkdtempSync(join(tmpdir(), 'report-')), 'in-process.html');
    writeFileSync(inProcess, renderHtmlReport(aQuietReport()));
    // Act
    const opened = await open(deployed);
    const text = await opened.page.$eval('main', (el) => el.textContent ?? '');
    const denials = await opened.page.$$('table.denials');
    const plain = await open(inProcess);
    const sections = await plain.page.$$('section.access');
    // Assess
    expect(text).toContain('AWS calls by function');
    expect(text).toContain('Nothing was denied.');
    expect(denials).toEqual([]);
    expect(sections).toEqual([]);
    expect([...opened.problems, ...plain.problems]).toEqual([]);
    await opened.page.close();
    await plain.page.close();
  }, 60_000);

  it('shows names and reasons as text, never as markup', async () => {
    const hostile = '<img src=x onerror="window.pwned=1"><script>window.pwned=2</script>';
    const report = aQuietReport(
      {
        pods: { total: 2, running: 2, pending: 0 },
        nodes: { launched: 1, terminated: 0, running: 1 },
        costPerHour: 0.05,
        decisionLatencyMs: { p50: 1000, p99: 1000 },
        launches: 1,
        invariants: [{ name: 'every pod is running', held: true, detail: hostile }],
      },
      {
        duration: 60,
        samples: [
          {
            t: 0,
            pendingPods: 2,
            runningPods: 0,
            nodesByType: {},
            costPerHour: 0,
            disruptingNodes: 0,
            disruptionsAllowed: 0,
          },
          {
            t: 30,
            pendingPods: 0,
            runningPods: 2,
            nodesByType: { 'm7g.large': 1 },
            costPerHour: 0.05,
            disruptingNodes: 0,
            disruptionsAllowed: 1,
          },
        ],
        timeline: [{ t: 0, message: hostile }],
        decisions: [
          {
            t: 1,
            kind: 'Launched',
            nodeClaim: `general-${hostile}`,
            nodePool: 'general',
            instanceType: 'm7g.large',
            zone: 'us-east-1a',
            capacityType: 'spot',
            pricePerHour: 0.05,
            reason: `</script>${hostile}`,
          },
        ],
      },
    );
    const file = join(mkdtempSync(join(tmpdir(), 'report-')), 'hostile.html');
    writeFileSync(file, renderHtmlReport(report));
    const { page, problems } = await open(file);
    expect(await page.evaluate(() => (globalThis as { pwned?: number }).pwned)).toBeUndefined();
    const reason = await page.$eval('table.decisions tbody td:last-child', (td) => td.textContent);
    expect(reason).toBe(`</script>${hostile}`);
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);
});

describe('the report file', () => {
  it('names no address a browser would fetch', () => {
    const calls = { 'ec2:CreateFleet': 1 };
    const html = renderHtmlReport(
      aQuietReport({
        aws: {
          calls,
          denied: [{ function: 'Controller9BE1D41E', action: 'ec2:CreateFleet' }],
          byFunction: { Controller9BE1D41E: calls },
        },
      }),
    );
    // uPlot's licence banner is a comment naming its home; nothing else may carry a URL.
    const withoutBanner = html.replace('/*! https://github.com/leeoniya/uPlot (v1.6.32) */', '');
    expect(withoutBanner).not.toMatch(/https?:\/\//);
    expect(withoutBanner).not.toMatch(/\b(src|href)=/);
  });
});
