// A Serverless Framework plugin of this project: splits the compiled CloudFormation template into a
// root stack and nested stacks of functions (stacks/index.js), since one stack may hold at most 500
// resources and one function per route makes about 930. At `package`, after osls has merged
// serverless.yml's `resources` (and its extensions) and before it saves the template, it replaces
// the template with the root one and writes each nested template beside it (so `--package <dir>`
// holds them too), and refuses a template past CloudFormation's quotas. At `deploy`, after osls has
// uploaded its artifacts, it uploads the nested templates to the same deployment directory of the
// deployment bucket, where the root template's TemplateURLs point.
//
// Why not serverless-plugin-split-stacks: at `package` it lists the deployed stack's resources
// through the CloudFormation API (so it fails without AWS credentials, where this project packages
// and tests), writes its templates to .serverless/ whatever `--package` says, and knows nothing of
// HTTP API (ApiGatewayV2) resources, which would need a stacks map of our own anyway.
const fs = require('node:fs');
const path = require('node:path');
const { limitViolations, nestedTemplateFiles, splitTemplate } = require('./index.js');

class StacksPlugin {
  constructor(serverless) {
    this.serverless = serverless;
    this.provider = serverless.getProvider('aws');
    this.hooks = {
      'before:aws:package:finalize:saveServiceState': () => this.split(),
      'after:aws:deploy:deploy:uploadArtifacts': () => this.upload(),
    };
  }

  /** Where osls writes the package before moving it to `--package`'s directory (and reads it back at deploy). */
  stagingDir() {
    return path.join(this.serverless.serviceDir, '.serverless');
  }

  split() {
    const { service } = this.serverless;
    const bucket = service.provider.deploymentBucket ?? { Ref: 'ServerlessDeploymentBucket' };
    const directory = service.package.artifactDirectoryName;
    // The deployment bucket is in the stack's region (osls makes it so); a path-style URL, as osls's own TemplateURL.
    const templateUrl = (fileName) => ({
      'Fn::Join': ['', ['https://s3.', { Ref: 'AWS::Region' }, '.', { Ref: 'AWS::URLSuffix' }, '/', bucket, '/', directory, '/', fileName]],
    });
    let split;
    try {
      split = splitTemplate(service.provider.compiledCloudFormationTemplate, { templateUrl });
    } catch (error) {
      throw new this.serverless.classes.Error(`splitting the CloudFormation template failed (stacks/index.js): ${error.message}`);
    }
    const { root, nested } = split;
    const problems = [...limitViolations(root, 'the root template'), ...nested.flatMap((n) => limitViolations(n.template, n.fileName))];
    if (problems.length > 0)
      throw new this.serverless.classes.Error(`past CloudFormation's quotas (stacks/index.js): ${problems.join('; ')}`);
    service.provider.compiledCloudFormationTemplate = root;
    fs.mkdirSync(this.stagingDir(), { recursive: true });
    for (const { fileName, template } of nested)
      fs.writeFileSync(path.join(this.stagingDir(), fileName), JSON.stringify(template, null, 2));
  }

  async upload() {
    const { service } = this.serverless;
    if (service.provider.shouldNotDeploy) return;
    // Loaded here: only a deployment needs it.
    const { S3Client, PutObjectCommand } = require('@aws-sdk/client-s3');
    const s3 = new S3Client(await this.provider.getAwsSdkV3Config());
    const bucket = await this.provider.getServerlessDeploymentBucketName();
    const encryption = service.provider.deploymentBucketObject ?? {};
    for (const fileName of nestedTemplateFiles(service.provider.compiledCloudFormationTemplate)) {
      const body = JSON.stringify(JSON.parse(fs.readFileSync(path.join(this.stagingDir(), fileName), 'utf8')));
      await s3.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: `${service.package.artifactDirectoryName}/${fileName}`,
          Body: body,
          ContentType: 'application/json',
          ...(encryption.serverSideEncryption ? { ServerSideEncryption: encryption.serverSideEncryption } : {}),
          ...(encryption.sseKMSKeyId ? { SSEKMSKeyId: encryption.sseKMSKeyId } : {}),
        }),
      );
    }
  }
}

module.exports = StacksPlugin;
