import type { Image } from '../../api/types.js';
import { DownloadLink } from '../../components/download-link.js';
import { formatUsd } from '../../lib/format.js';

/** The picture with what it cost, the model, the seed, a download link and "again with this seed". */
export function GenerationResult({ image, busy, onAgain }: { image: Image; busy: boolean; onAgain: (seed: string) => void }) {
  const seed = image.parameters.seed === undefined ? undefined : String(image.parameters.seed);
  return (
    <section class="result" aria-labelledby="result-heading">
      <h2 id="result-heading">Result</h2>
      <figure>
        <img src={image.r2_url} alt={image.prompt} width={image.width} height={image.height} />
        <figcaption>{image.prompt}</figcaption>
      </figure>
      <dl class="facts">
        <div>
          <dt>Model</dt>
          <dd>{image.model}</dd>
        </div>
        <div>
          <dt>Cost</dt>
          <dd>{formatUsd(image.cost)}</dd>
        </div>
        <div>
          <dt>Seed</dt>
          <dd>{seed ?? 'none'}</dd>
        </div>
        <div>
          <dt>Size</dt>
          <dd>
            {image.width} × {image.height}
          </dd>
        </div>
      </dl>
      <div class="actions">
        <DownloadLink image={image} />
        {seed !== undefined && (
          <button type="button" class="button" disabled={busy} onClick={() => onAgain(seed)}>
            Generate again with this seed
          </button>
        )}
      </div>
    </section>
  );
}
