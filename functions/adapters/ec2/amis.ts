/**
 * The AMIs an EC2NodeClass selects (aws: pkg/providers/amifamily/ami.go): an alias resolves
 * through the public SSM parameters to one image per architecture and variant; other terms
 * query DescribeImages, and of the images with the same requirements (architecture) the newest
 * CreationDate wins, ties going to the lower id.
 */
import { type Image, paginateDescribeImages } from '@aws-sdk/client-ec2';
import { Label } from '../../domain/labels.ts';
import type { AmiSelectorTerm } from '../../domain/node-class.ts';
import type { ResolvedAmi } from '../../ports/cloud-provider.ts';
import { TtlCache } from '../cache/ttl-cache.ts';
import { aliasParameters, variantRequirements } from './ami-aliases.ts';
import type { Ec2Api, Now } from './clients.ts';
import type { ClusterSettings } from './cluster-settings.ts';
import { toPortError } from './errors.ts';
import { type DescribedImage, fromImage } from './mappers.ts';
import { collect } from './pages.ts';
import { RefreshInterval } from './refresh-intervals.ts';
import { type ImageQuery, imageQuery } from './selector-filters.ts';
import type { SsmParameters } from './ssm-parameters.ts';

/** Newest first; equal dates by id, so the order never depends on EC2's. */
export function byNewest(a: ResolvedAmi, b: ResolvedAmi): number {
  const dates = (b.creationDate ?? '').localeCompare(a.creationDate ?? '');
  return dates !== 0 ? dates : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

function toResolvedAmi(
  image: DescribedImage,
  requirements: ResolvedAmi['requirements'],
): ResolvedAmi {
  const ami = { id: image.id, requirements };
  const named = image.name === undefined ? ami : { ...ami, name: image.name };
  return image.creationDate === undefined ? named : { ...named, creationDate: image.creationDate };
}

/** Of images with the same architecture, the newest. Images of other architectures are skipped. */
function newestPerArchitecture(images: readonly DescribedImage[]): ResolvedAmi[] {
  const newest = new Map<string, ResolvedAmi>();
  for (const image of images) {
    if (image.architecture === undefined) continue;
    const candidate = toResolvedAmi(image, variantlessRequirements(image.architecture));
    const current = newest.get(image.architecture);
    if (current === undefined || byNewest(candidate, current) < 0) {
      newest.set(image.architecture, candidate);
    }
  }
  return [...newest.values()];
}

function variantlessRequirements(architecture: string): ResolvedAmi['requirements'] {
  return [{ key: Label.arch, operator: 'In', values: [architecture] }];
}

export class AmiProvider {
  readonly #ec2: Ec2Api;
  readonly #ssm: SsmParameters;
  readonly #cluster: ClusterSettings;
  readonly #cache: TtlCache<readonly ResolvedAmi[]>;

  constructor(options: { ec2: Ec2Api; ssm: SsmParameters; cluster: ClusterSettings; now: Now }) {
    this.#ec2 = options.ec2;
    this.#ssm = options.ssm;
    this.#cluster = options.cluster;
    this.#cache = new TtlCache(options.now, RefreshInterval.amisMs);
  }

  /** The selected AMIs, newest first; cached for a minute per set of terms. */
  list(terms: readonly AmiSelectorTerm[]): Promise<readonly ResolvedAmi[]> {
    const alias = terms.find((term) => term.alias !== undefined)?.alias;
    return this.#cache.getOrLoad(JSON.stringify(terms), async () => {
      const amis = alias !== undefined ? await this.#byAlias(alias) : await this.#byTerms(terms);
      return amis.sort(byNewest);
    });
  }

  async #byAlias(alias: string): Promise<ResolvedAmi[]> {
    const parameters = aliasParameters(alias, this.#cluster.kubernetesVersion);
    // One image can serve several variants: each parameter is read once.
    const paths = [...new Set(parameters.map((parameter) => parameter.path))];
    const values = await Promise.all(paths.map((path) => this.#ssm.get(path)));
    const idByPath = new Map(paths.map((path, index) => [path, values[index]]));
    const ids = [...new Set(values.flatMap((id) => (id === undefined ? [] : [id])))].sort();
    if (ids.length === 0) return [];
    const images = await this.#describe({
      filters: [{ Name: 'image-id', Values: ids }],
      owners: [],
    });
    const byId = new Map(images.map((image) => [image.id, image]));
    return parameters.flatMap(({ path, architecture, variant }) => {
      const image = byId.get(idByPath.get(path) ?? '');
      return image === undefined
        ? []
        : [toResolvedAmi(image, variantRequirements(architecture, variant))];
    });
  }

  async #byTerms(terms: readonly AmiSelectorTerm[]): Promise<ResolvedAmi[]> {
    const queries = await Promise.all(terms.map((term) => this.#queryOf(term)));
    const pages = await Promise.all(
      queries.flatMap((query) => (query === undefined ? [] : [this.#describe(query)])),
    );
    return newestPerArchitecture(pages.flat());
  }

  /** An `ssmParameter` term names a parameter holding an image id; an unset parameter selects nothing. */
  async #queryOf(term: AmiSelectorTerm): Promise<ImageQuery | undefined> {
    if (term.ssmParameter === undefined) return imageQuery(term);
    const id = await this.#ssm.get(term.ssmParameter);
    return id === undefined ? undefined : imageQuery(term, id);
  }

  async #describe(query: ImageQuery): Promise<DescribedImage[]> {
    try {
      const pages = paginateDescribeImages(
        { client: this.#ec2 },
        {
          // EC2 refuses empty Filters and Owners lists.
          Filters: query.filters.length > 0 ? [...query.filters] : undefined,
          Owners: query.owners.length > 0 ? [...query.owners] : undefined,
        },
      );
      const images: Image[] = await collect(pages, (page) => page.Images);
      return images.map(fromImage);
    } catch (err) {
      throw toPortError(err, 'describing images');
    }
  }
}
