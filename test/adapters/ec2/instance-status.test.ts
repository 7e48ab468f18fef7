/**
 * EC2's status checks through DescribeInstanceStatus, as aws: pkg/providers/instancestatus
 * reads them; the response is the one its suite_test.go sets (instance, system and EBS
 * reachability failed, an instance retirement scheduled).
 */
import { DescribeInstanceStatusCommand } from '@aws-sdk/client-ec2';
import { describe, expect, it } from 'vitest';
import { Ec2CloudProvider } from '../../../functions/adapters/ec2/ec2-cloud-provider.ts';
import { ThrottledError } from '../../../functions/ports/errors.ts';
import { aClock, CLUSTER, ec2Error, mockedClients } from './support.ts';

const IMPAIRED_SINCE = new Date('2026-11-24T09:00:00Z');

const failed = {
  Status: 'failed' as const,
  Name: 'reachability' as const,
  ImpairedSince: IMPAIRED_SINCE,
};
const IMPAIRED = {
  InstanceId: 'i-0123456789',
  InstanceStatus: { Status: 'impaired' as const, Details: [failed] },
  SystemStatus: { Status: 'impaired' as const, Details: [failed] },
  AttachedEbsStatus: { Status: 'impaired' as const, Details: [failed] },
  Events: [{ Code: 'instance-retirement' as const }],
};

function setUp() {
  const clients = mockedClients();
  const cloud = new Ec2CloudProvider({ ...clients, cluster: CLUSTER, now: aClock().now });
  return { ...clients, cloud };
}

describe('instance status checks', () => {
  it('asks for impaired instance checks, impaired system checks and scheduled events, one call each, and reads every detail once per instance', async () => {
    // Prepare: the impaired instance answers all three filters
    const { cloud, ec2Mock } = setUp();
    ec2Mock.on(DescribeInstanceStatusCommand).resolves({ InstanceStatuses: [IMPAIRED] });

    // Act
    const statuses = await cloud.instanceStatuses();

    // Assess
    expect(
      ec2Mock.commandCalls(DescribeInstanceStatusCommand).map((c) => c.args[0].input.Filters),
    ).toEqual([
      [{ Name: 'instance-status.status', Values: ['impaired'] }],
      [{ Name: 'system-status.status', Values: ['impaired'] }],
      [
        {
          Name: 'event.code',
          Values: [
            'instance-reboot',
            'system-reboot',
            'system-maintenance',
            'instance-retirement',
            'instance-stop',
          ],
        },
      ],
    ]);
    const since = IMPAIRED_SINCE.toISOString();
    expect(statuses).toEqual([
      {
        instanceId: 'i-0123456789',
        details: [
          {
            category: 'InstanceStatus',
            name: 'reachability',
            status: 'failed',
            impairedSince: since,
          },
          {
            category: 'SystemStatus',
            name: 'reachability',
            status: 'failed',
            impairedSince: since,
          },
          { category: 'EBSStatus', name: 'reachability', status: 'failed', impairedSince: since },
          { category: 'EventStatus', name: 'instance-retirement', status: 'failed' },
        ],
      },
    ]);
  });

  it('reports throttling as ThrottledError', async () => {
    // Prepare
    const { cloud, ec2Mock } = setUp();
    ec2Mock.on(DescribeInstanceStatusCommand).rejects(ec2Error('RequestLimitExceeded'));

    // Act
    const error = await cloud.instanceStatuses().catch((err: unknown) => err);

    // Assess
    expect(error).toBeInstanceOf(ThrottledError);
    expect((error as Error).message).toBe(
      'describing instance status checks: throttled (RequestLimitExceeded)',
    );
  });
});
