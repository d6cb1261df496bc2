locals {
  cluster_name              = "pod-metadata-forward.example.com"
  master_security_group_ids = [data.aws_security_group.masters-pod-metadata-forward-example-com.id]
  masters_role_arn          = aws_iam_role.masters-pod-metadata-forward-example-com.arn
  masters_role_name         = aws_iam_role.masters-pod-metadata-forward-example-com.name
  node_security_group_ids   = [data.aws_security_group.nodes-pod-metadata-forward-example-com.id]
  nodes_role_arn            = aws_iam_role.nodes-pod-metadata-forward-example-com.arn
  nodes_role_name           = aws_iam_role.nodes-pod-metadata-forward-example-com.name
  region                    = "us-east-2"
}

output "cluster_name" {
  value = "pod-metadata-forward.example.com"
}

output "master_security_group_ids" {
  value = [data.aws_security_group.masters-pod-metadata-forward-example-com.id]
}

output "masters_role_arn" {
  value = aws_iam_role.masters-pod-metadata-forward-example-com.arn
}

output "masters_role_name" {
  value = aws_iam_role.masters-pod-metadata-forward-example-com.name
}

output "node_security_group_ids" {
  value = [data.aws_security_group.nodes-pod-metadata-forward-example-com.id]
}

output "nodes_role_arn" {
  value = aws_iam_role.nodes-pod-metadata-forward-example-com.arn
}

output "nodes_role_name" {
  value = aws_iam_role.nodes-pod-metadata-forward-example-com.name
}

output "region" {
  value = "us-east-2"
}

provider "aws" {
  region = "us-east-2"
}

data "aws_security_group" "masters-pod-metadata-forward-example-com" {
  name = "masters.pod-metadata-forward.example.com"
  tags = {
    KubernetesCluster = "pod-metadata-forward.example.com"
  }
}

data "aws_security_group" "nodes-pod-metadata-forward-example-com" {
  name = "nodes.pod-metadata-forward.example.com"
  tags = {
    KubernetesCluster = "pod-metadata-forward.example.com"
  }
}

resource "aws_iam_instance_profile" "masters-pod-metadata-forward-example-com" {
  name = "masters.pod-metadata-forward.example.com"
  role = aws_iam_role.masters-pod-metadata-forward-example-com.name
  tags = {
    KubernetesCluster                                        = "pod-metadata-forward.example.com"
    "kubernetes.io/cluster/pod-metadata-forward.example.com" = "owned"
  }
}

resource "aws_iam_instance_profile" "nodes-pod-metadata-forward-example-com" {
  name = "nodes.pod-metadata-forward.example.com"
  role = aws_iam_role.nodes-pod-metadata-forward-example-com.name
  tags = {
    KubernetesCluster                                        = "pod-metadata-forward.example.com"
    "kubernetes.io/cluster/pod-metadata-forward.example.com" = "owned"
  }
}

resource "aws_iam_role" "masters-pod-metadata-forward-example-com" {
  assume_role_policy = file("${path.module}/data/aws_iam_role_masters.pod-metadata-forward.example.com_policy")
  name               = "masters.pod-metadata-forward.example.com"
  tags = {
    KubernetesCluster                                        = "pod-metadata-forward.example.com"
    "kubernetes.io/cluster/pod-metadata-forward.example.com" = "owned"
  }
}

resource "aws_iam_role" "nodes-pod-metadata-forward-example-com" {
  assume_role_policy = file("${path.module}/data/aws_iam_role_nodes.pod-metadata-forward.example.com_policy")
  name               = "nodes.pod-metadata-forward.example.com"
  tags = {
    KubernetesCluster                                        = "pod-metadata-forward.example.com"
    "kubernetes.io/cluster/pod-metadata-forward.example.com" = "owned"
  }
}

resource "aws_iam_role_policy" "masters-pod-metadata-forward-example-com" {
  name   = "masters.pod-metadata-forward.example.com"
  policy = file("${path.module}/data/aws_iam_role_policy_masters.pod-metadata-forward.example.com_policy")
  role   = aws_iam_role.masters-pod-metadata-forward-example-com.name
}

resource "aws_iam_role_policy" "nodes-pod-metadata-forward-example-com" {
  name   = "nodes.pod-metadata-forward.example.com"
  policy = file("${path.module}/data/aws_iam_role_policy_nodes.pod-metadata-forward.example.com_policy")
  role   = aws_iam_role.nodes-pod-metadata-forward-example-com.name
}

resource "aws_launch_template" "control-plane-us-east-2a-masters-pod-metadata-forward-example-com" {
  block_device_mappings {
    device_name = "/dev/xvda"
    ebs {
      delete_on_termination = true
      encrypted             = true
      iops                  = 3000
      throughput            = 125
      volume_size           = 64
      volume_type           = "gp3"
    }
  }
  iam_instance_profile {
    name = aws_iam_instance_profile.masters-pod-metadata-forward-example-com.id
  }
  image_id      = "resolve:ssm:/aws/service/ami-amazon-linux-latest/al2023-ami-kernel-default-x86_64"
  instance_type = "t3.medium"
  lifecycle {
    create_before_destroy = true
  }
  metadata_options {
    http_endpoint               = "enabled"
    http_protocol_ipv6          = "disabled"
    http_put_response_hop_limit = 1
    http_tokens                 = "required"
  }
  name = "control-plane-us-east-2a.masters.pod-metadata-forward.example.com"
  tag_specifications {
    resource_type = "instance"
    tags = {
      KubernetesCluster                                        = "pod-metadata-forward.example.com"
      "kops.k8s.io/instancegroup"                              = "control-plane-us-east-2a"
      "kubernetes.io/cluster/pod-metadata-forward.example.com" = "owned"
    }
  }
  tag_specifications {
    resource_type = "network-interface"
    tags = {
      KubernetesCluster                                        = "pod-metadata-forward.example.com"
      "kops.k8s.io/instancegroup"                              = "control-plane-us-east-2a"
      "kubernetes.io/cluster/pod-metadata-forward.example.com" = "owned"
    }
  }
  tag_specifications {
    resource_type = "volume"
    tags = {
      KubernetesCluster                                        = "pod-metadata-forward.example.com"
      "kops.k8s.io/instancegroup"                              = "control-plane-us-east-2a"
      "kubernetes.io/cluster/pod-metadata-forward.example.com" = "owned"
    }
  }
  tags = {
    KubernetesCluster                                        = "pod-metadata-forward.example.com"
    "kops.k8s.io/instancegroup"                              = "control-plane-us-east-2a"
    "kubernetes.io/cluster/pod-metadata-forward.example.com" = "owned"
  }
  user_data              = filebase64("${path.module}/data/aws_launch_template_control-plane-us-east-2a.masters.pod-metadata-forward.example.com_user_data")
  vpc_security_group_ids = [data.aws_security_group.masters-pod-metadata-forward-example-com.id]
}

resource "aws_launch_template" "nodes-pod-metadata-forward-example-com" {
  block_device_mappings {
    device_name = "/dev/xvda"
    ebs {
      delete_on_termination = true
      encrypted             = true
      iops                  = 3000
      throughput            = 125
      volume_size           = 128
      volume_type           = "gp3"
    }
  }
  iam_instance_profile {
    name = aws_iam_instance_profile.nodes-pod-metadata-forward-example-com.id
  }
  image_id      = "resolve:ssm:/aws/service/ami-amazon-linux-latest/al2023-ami-kernel-default-x86_64"
  instance_type = "t3.large"
  lifecycle {
    create_before_destroy = true
  }
  metadata_options {
    http_endpoint               = "enabled"
    http_protocol_ipv6          = "disabled"
    http_put_response_hop_limit = 1
    http_tokens                 = "required"
  }
  name = "nodes.pod-metadata-forward.example.com"
  tag_specifications {
    resource_type = "instance"
    tags = {
      KubernetesCluster                                        = "pod-metadata-forward.example.com"
      "kops.k8s.io/instancegroup"                              = "nodes"
      "kubernetes.io/cluster/pod-metadata-forward.example.com" = "owned"
    }
  }
  tag_specifications {
    resource_type = "network-interface"
    tags = {
      KubernetesCluster                                        = "pod-metadata-forward.example.com"
      "kops.k8s.io/instancegroup"                              = "nodes"
      "kubernetes.io/cluster/pod-metadata-forward.example.com" = "owned"
    }
  }
  tag_specifications {
    resource_type = "volume"
    tags = {
      KubernetesCluster                                        = "pod-metadata-forward.example.com"
      "kops.k8s.io/instancegroup"                              = "nodes"
      "kubernetes.io/cluster/pod-metadata-forward.example.com" = "owned"
    }
  }
  tags = {
    KubernetesCluster                                        = "pod-metadata-forward.example.com"
    "kops.k8s.io/instancegroup"                              = "nodes"
    "kubernetes.io/cluster/pod-metadata-forward.example.com" = "owned"
  }
  user_data              = filebase64("${path.module}/data/aws_launch_template_nodes.pod-metadata-forward.example.com_user_data")
  vpc_security_group_ids = [data.aws_security_group.nodes-pod-metadata-forward-example-com.id]
}

terraform {
  required_version = ">= 0.15.0"
  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = ">= 5.0.0"
    }
  }
}
